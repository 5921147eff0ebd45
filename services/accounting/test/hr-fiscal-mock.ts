import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { verifyRequest } from '../src/modules/fiscalization-hr/sign.js';

/** What the mock answers next: a SOAP answer, an HTTP status with no answer, or a cut connection. */
export type MockAnswer = { xml: string } | { status: number } | { drop: true };

export interface ReceivedMessage {
  path: string;
  /** The request's local name (EvidentirajERacunZahtjev, EvidentirajNaplatuZahtjev, ...). */
  root: string;
  requestId: string;
  body: string;
  xsd: string[];
  verified: boolean;
}

const ERACUN_ACCEPTED = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>
  <fis:EvidentirajERacunOdgovor xmlns:fis="http://www.porezna-uprava.gov.hr/fin/2024/types/eFiskalizacija" fis:id="a1">
  <fis:datumVrijemeSlanja>2026-02-01T10:00:00.0000</fis:datumVrijemeSlanja>
  <fis:Odgovor><fis:idZahtjeva>{id}</fis:idZahtjeva><fis:prihvacenZahtjev>true</fis:prihvacenZahtjev></fis:Odgovor>
  </fis:EvidentirajERacunOdgovor></soapenv:Body></soapenv:Envelope>`;

/**
 * The Tax Administration's fiscalization SOAP services (eFiskalizacija, eIzvjestavanje) as a local
 * HTTP server: every request it receives is checked against the official XSD of its service and
 * its signature verified with the test certificate, and recorded. It answers from `answers` (the
 * official success and failure samples, 5xx, a cut connection), else success: for e-reporting the
 * official sample answer, for an e-invoice one carrying the request's id.
 */
export class HrFiscalMock {
  readonly received: ReceivedMessage[] = [];
  readonly answers: MockAnswer[] = [];
  private server: Server | null = null;
  url = '';

  constructor(
    private readonly certPem: string,
    private readonly hrDir: string,
  ) {}

  private async xsdErrors(xml: string, schema: 'eFiskalizacijaSchema' | 'eIzvjestavanjeSchema') {
    const dir = `${this.hrDir}${schema}/`;
    const r = await validateXML({
      xml: [{ fileName: 'message.xml', contents: xml }],
      schema: [{ fileName: `${schema}.xsd`, contents: readFileSync(`${dir}${schema}.xsd`, 'utf8') }],
      preload: [
        { fileName: 'xmldsig-core-schema.xsd', contents: readFileSync(`${dir}xmldsig-core-schema.xsd`, 'utf8') },
      ],
    });
    return r.errors.map((e) => e.rawMessage);
  }

  async start() {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const envelope = Buffer.concat(chunks).toString('utf8');
      const body = /<soapenv:Body>([\s\S]*)<\/soapenv:Body>/.exec(envelope)?.[1] ?? '';
      const root = /^<\w+:(\w+)/.exec(body.trim())?.[1] ?? '';
      const reporting = body.trim().startsWith('<eiz:');
      this.received.push({
        path: req.url ?? '',
        root,
        requestId: /(?:fis|eiz):id="([^"]+)"/.exec(body)?.[1] ?? '',
        body,
        xsd: await this.xsdErrors(body, reporting ? 'eIzvjestavanjeSchema' : 'eFiskalizacijaSchema'),
        verified: verifyRequest(body, this.certPem),
      });
      const answer = this.answers.shift();
      if (answer && 'drop' in answer) {
        req.socket.destroy();
        return;
      }
      if (answer && 'status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'text/plain' }).end('Service unavailable');
        return;
      }
      const id = /(?:fis|eiz):id="([^"]+)"/.exec(body)?.[1] ?? '';
      const xml =
        answer?.xml ??
        (root === 'EvidentirajNaplatuZahtjev'
          ? readFileSync(`${this.hrDir}Primjeri_poruka_eIzvjestavanja/Odgovor_EvidentirajNaplatu.xml`, 'utf8')
          : root === 'EvidentirajOdbijanjeZahtjev'
            ? readFileSync(`${this.hrDir}Primjeri_poruka_eIzvjestavanja/Odgovor_EvidentirajOdbijanje.xml`, 'utf8')
            : ERACUN_ACCEPTED.replaceAll('{id}', id));
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(xml);
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** The test certificate and key as a PKCS#12 file (base64), as an owner uploads it. */
export function p12Of(cert: { key: string; cert: string }, password: string) {
  const dir = mkdtempSync(join(tmpdir(), 'hr-p12-'));
  writeFileSync(join(dir, 'key.pem'), cert.key);
  writeFileSync(join(dir, 'cert.pem'), cert.cert);
  execFileSync(
    'openssl',
    [
      'pkcs12',
      '-export',
      '-inkey',
      join(dir, 'key.pem'),
      '-in',
      join(dir, 'cert.pem'),
      '-passout',
      `pass:${password}`,
      '-out',
      join(dir, 'c.p12'),
    ],
    { stdio: 'ignore' },
  );
  return readFileSync(join(dir, 'c.p12')).toString('base64');
}

/** A test signing certificate made here (never a real one): RSA 2048, self-signed. */
export function testCertificate() {
  const dir = mkdtempSync(join(tmpdir(), 'hr-cert-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/C=HR/O=Test d.o.o./CN=FISKAL 1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}
