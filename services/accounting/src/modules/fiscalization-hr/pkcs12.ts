import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The private key and certificate of a PKCS#12 file (the FINA certificate an owner uploads).
 * Node's crypto reads PEM but not PKCS#12, so the file is opened with the openssl CLI (the password
 * passed through the environment, never the command line; `-legacy` tried for RC2/3DES files made
 * by older tools). Null when the file or the password is wrong.
 */
export async function openPkcs12(p12: Buffer, password: string) {
  const dir = await mkdtemp(join(tmpdir(), 'p12-'));
  try {
    const file = join(dir, 'cert.p12');
    await writeFile(file, p12, { mode: 0o600 });
    const env = { ...process.env, P12_PASSWORD: password };
    let pem: string | null = null;
    for (const extra of [[], ['-legacy']]) {
      try {
        const out = await run('openssl', ['pkcs12', '-in', file, '-nodes', '-passin', 'env:P12_PASSWORD', ...extra], {
          env,
          maxBuffer: 1 << 20,
        });
        pem = out.stdout;
        break;
      } catch {
        // wrong password, or a format this openssl needs -legacy for
      }
    }
    if (!pem) return null;
    const key =
      /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.exec(
        pem,
      )?.[0];
    const certs = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    if (!key || !certs.length) return null;
    // The signing certificate is the one whose public key matches the private key.
    const { createPrivateKey, createPublicKey } = await import('node:crypto');
    const pub = createPublicKey(createPrivateKey(key)).export({ type: 'spki', format: 'der' });
    const own = certs.find((c) => new X509Certificate(c).publicKey.export({ type: 'spki', format: 'der' }).equals(pub));
    if (!own) return null;
    const x509 = new X509Certificate(own);
    return { keyPem: key, certPem: own, subject: x509.subject.replace(/\n/g, ', '), notAfter: new Date(x509.validTo) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
