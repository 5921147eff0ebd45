import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets stored at rest (a SEF API key, a PKCS#12 certificate and its password): AES-256-GCM under
 * a key derived from the environment's key (SEF_KEY_ENCRYPTION_KEY, at least 32 characters), so a
 * copy of the database alone does not reveal them. Text form: `v1.<iv>.<tag>.<ciphertext>`,
 * base64url. `purpose` is bound as associated data: a ciphertext stored for one column cannot be
 * passed off as another's.
 */
export class SecretBox {
  private readonly key: Buffer;
  constructor(secret: string) {
    this.key = createHash('sha256').update(`ledgerline secret-box v1\0${secret}`).digest();
  }

  seal(plain: Buffer | string, purpose: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(typeof plain === 'string' ? Buffer.from(plain) : plain), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((x) => (typeof x === 'string' ? x : x.toString('base64url')))
      .join('.');
  }

  open(sealed: string, purpose: string): Buffer {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  }
}
