import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Doc {
  id: number;
  xml: string;
  number: string;
  senderOib: string;
  senderName: string;
  imported: boolean;
}

/**
 * Moj-eRačun's REST API (API V2) as a local HTTP server, built from what its public clients show
 * (docs/accounting/exchange-hr.md): POST with JSON bodies carrying Username, Password, CompanyId
 * and SoftwareId; wrong credentials answer 401 with `{Username: {Value, Messages}}`; queryInbox
 * lists the documents addressed to the company not confirmed as imported, receive hands over one
 * document's XML, notifyimport/{id} confirms it; /api/mps/check answers 200 for a registered OIB
 * and 404 otherwise; send answers the document's row.
 */
export class MojERacunMock {
  readonly calls: Array<{ path: string; body: Record<string, unknown> }> = [];
  readonly inbox: Doc[] = [];
  readonly sent: Array<{ id: number; xml: string }> = [];
  readonly registered = new Set<string>();
  /** The next answers to force, by path: a status (429, 5xx) or a cut connection. */
  readonly failures = new Map<string, Array<{ status: number } | { drop: true }>>();
  credentials = { Username: 'demo-user', Password: 'demo-pass', CompanyId: '', SoftwareId: 'Ledgerline-001' };
  private server: Server | null = null;
  private nextId = 3_148_000;
  url = '';

  addReceived(xml: string, number: string, senderOib: string, senderName = 'Dobavljač d.o.o.') {
    const id = this.nextId++;
    this.inbox.push({ id, xml, number, senderOib, senderName, imported: false });
    return id;
  }

  async start() {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const path = (req.url ?? '').split('?')[0];
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"invalid JSON"}');
        return;
      }
      this.calls.push({ path, body });
      const forced = this.failures.get(path)?.shift();
      if (forced && 'drop' in forced) return void req.socket.destroy();
      if (forced) return void res.writeHead(forced.status, { 'content-type': 'text/plain' }).end('Service unavailable');
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(value));
      const c = this.credentials;
      if (
        req.method !== 'POST' ||
        body.Username !== c.Username ||
        body.Password !== c.Password ||
        body.SoftwareId !== c.SoftwareId ||
        (c.CompanyId && body.CompanyId !== c.CompanyId)
      )
        return json(401, { Username: { Value: 'Incorrect', Messages: ['Korisničko ime i lozinka nisu ispravni.'] } });
      if (path === '/api/mps/check') {
        return this.registered.has(String(body.IdentifierValue))
          ? json(200, { IdentifierValue: body.IdentifierValue, Registered: true })
          : json(404, { message: 'Identifier not found' });
      }
      if (path === '/apis/v2/queryInbox') {
        const rows = this.inbox
          .filter((d) => body.Filter !== 'Undelivered' || !d.imported)
          .map((d) => ({
            ElectronicId: d.id,
            DocumentNr: d.number,
            DocumentTypeId: 1,
            DocumentTypeName: 'Račun',
            StatusId: 30,
            StatusName: 'Dostavljen',
            SenderBusinessNumber: d.senderOib,
            SenderBusinessUnit: null,
            SenderBusinessName: d.senderName,
            Imported: d.imported,
          }));
        return json(200, rows);
      }
      if (path === '/apis/v2/receive') {
        const doc = this.inbox.find((d) => d.id === Number(body.ElectronicId));
        if (!doc) return json(404, { message: 'Document not found' });
        return void res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' }).end(doc.xml);
      }
      const ack = /^\/apis\/v2\/notifyimport\/(\d+)$/.exec(path);
      if (ack) {
        const doc = this.inbox.find((d) => d.id === Number(ack[1]));
        if (!doc) return json(404, { message: 'Document not found' });
        doc.imported = true;
        return json(200, { ElectronicId: doc.id, Imported: true });
      }
      if (path === '/apis/v2/send') {
        const id = this.nextId++;
        this.sent.push({ id, xml: String(body.File ?? '') });
        return json(200, { ElectronicId: id, StatusId: 20, StatusName: 'Obrađen', DocumentTypeId: 1 });
      }
      if (path === '/apis/v2/queryOutbox') {
        const doc = this.sent.find((d) => d.id === Number(body.ElectronicId));
        return json(200, doc ? [{ ElectronicId: doc.id, StatusId: 30, StatusName: 'Dostavljen' }] : []);
      }
      json(404, { message: 'Not found' });
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
