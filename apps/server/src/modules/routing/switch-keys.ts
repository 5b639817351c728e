import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connection';
import { hashToken } from '../auth/tokens';

/**
 * The switch API keys the route API accepts (header X-Switch-Key). Keys are stored hashed; the
 * hashes of the unrevoked keys are kept in memory, so checking a key costs one hash and one set
 * look-up, no query. Creating or revoking a key reloads the set.
 */
export class SwitchKeyRing {
  private hashes: Set<string> | null = null;
  private loading: Promise<Set<string>> | null = null;
  /** The last key accepted, so a proxy sending the same key on every call skips the hash. */
  private lastKey: string | null = null;

  constructor(private readonly db: Db) {}

  /** A new random key (shown once) and its hash. */
  static newKey(): { key: string; hash: string; prefix: string } {
    const key = 'tsk_' + randomBytes(24).toString('base64url');
    return { key, hash: hashToken(key), prefix: key.slice(0, 8) };
  }

  /** Whether `key` is a valid key; synchronous once the set is loaded. */
  accepts(key: unknown): boolean | Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0 || key.length > 200) return false;
    if (this.hashes === null) return this.load().then(() => this.accepts(key));
    if (key === this.lastKey) return true;
    if (!this.hashes.has(hashToken(key))) return false;
    this.lastKey = key;
    return true;
  }

  /** Reloads the set from the database (after a key is created or revoked). */
  async reload(): Promise<void> {
    this.hashes = null;
    this.lastKey = null;
    this.loading = null;
    await this.load();
  }

  private async load(): Promise<Set<string>> {
    this.loading ??= this.db
      .selectFrom('switch_api_keys')
      .select('key_hash')
      .where('revoked_at', 'is', null)
      .execute()
      .then((rows) => (this.hashes = new Set(rows.map((r) => r.key_hash))))
      .catch((error: unknown) => {
        this.loading = null;
        throw error;
      });
    return this.loading;
  }
}
