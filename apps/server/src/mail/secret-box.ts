import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets Tandem must give back to a third party (SMTP passwords, payment provider keys) are stored
 * encrypted: AES-256-GCM with a key derived from the server secret (settings.server_secret), so a
 * copy of a table alone reveals none of them. Format: v1.<iv>.<tag>.<ciphertext>, base64url.
 */
export class SecretBox {
  constructor(private readonly serverSecret: () => Promise<string>) {}

  private async key(): Promise<Buffer> {
    return createHash('sha256')
      .update('tandem-secret-box\u0000' + (await this.serverSecret()))
      .digest();
  }

  async seal(plain: string): Promise<string> {
    if (!plain) return '';
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', await this.key(), iv);
    const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return ['v1', iv, c.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  async open(sealed: string): Promise<string> {
    if (!sealed) return '';
    const [v, iv, tag, data] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable sealed secret');
    const d = createDecipheriv('aes-256-gcm', await this.key(), Buffer.from(iv, 'base64url'));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(data, 'base64url')), d.final()]).toString('utf8');
  }
}
