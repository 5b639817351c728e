import { parseMoney } from '@tandem/domain';
import { sql } from 'kysely';
import type { Services } from '../../services';
import type { LiveState } from '../routing/live-state';

/** How often the balances are read back from the database (changes made by other processes). */
export const BALANCE_POLL_MS = 500;

/**
 * Keeps the routing engine's live balances in step with the database. A batch ingested by this
 * process updates them at once (CdrIngest); this poller brings in what other server processes
 * sharing the PostgreSQL database changed (and anything written outside the ingest), within
 * BALANCE_POLL_MS. One small query over the carriers table; PGlite is one process, so it polls
 * less often there.
 */
export class BalancePoller {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly s: Services,
    private readonly live: LiveState,
  ) {}

  start(): void {
    const every = this.s.dbKind === 'postgres' ? BALANCE_POLL_MS : BALANCE_POLL_MS * 10;
    this.timer = setInterval(() => void this.poll(), every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async poll(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const at = performance.now();
      const rows = await sql<{ client_id: number; balance: string }>`
        SELECT client_id, balance::text AS balance FROM carriers`.execute(this.s.db);
      for (const r of rows.rows) this.live.setBalance(r.client_id, parseMoney(r.balance), at);
    } catch (err) {
      this.s.log.warn({ err }, 'balance poll failed');
    } finally {
      this.running = false;
    }
  }
}
