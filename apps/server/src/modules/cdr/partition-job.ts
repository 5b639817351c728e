import type { Services } from '../../services';
import type { CdrPartitions } from './partitions';

/** Days of CDR partitions made ahead of today by the daily job (the ingest makes any it still lacks). */
export const PARTITION_DAYS_AHEAD = 7;

/**
 * The recurring job `cdr.partitions`, daily at 01:00 UTC: makes the CDR partitions of today and the
 * next PARTITION_DAYS_AHEAD days, then drops the days older than the system setting
 * `cdr_retention_days` (0 keeps everything). A run missed while the server was down runs once at
 * the next start. Both steps are idempotent, so a run taken over after a crash simply repeats.
 */
export function schedulePartitionMaintenance(s: Services, partitions: CdrPartitions): void {
  s.jobs.define('cdr.partitions', async (_payload, ctx) => {
    const now = Date.now();
    ctx.progress({ done: 0, total: 2, message: 'making partitions ahead' });
    const made = await partitions.makeAhead(now, PARTITION_DAYS_AHEAD);
    ctx.signal.throwIfAborted();
    const retentionDays = (await s.settings.system()).cdr_retention_days;
    ctx.progress({ done: 1, total: 2, message: `dropping days older than ${retentionDays} days` });
    const dropped = await partitions.dropOlderThan(now, retentionDays);
    ctx.progress({ done: 2, total: 2, message: `${made} made, ${dropped.length} dropped` });
    return { made, dropped, retention_days: retentionDays };
  });
  s.jobs.every('cdr.partitions', { daily: '01:00' });
}
