/**
 * CDRs of one day for the benchmarks' SDF configuration (bench/routing/setup.ts `configure`): the
 * "Bench ingress" customer trunk calling the deck's codes, spread over the vendors, 40 % unanswered.
 * Seeded, so every run ingests the same attempts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema';
import { seeded } from '../routing/setup';

export interface BenchTrunks {
  ingress: number;
  vendors: number[];
}

/** The configured customer trunk and the vendors' trunks. */
export async function benchTrunks(db: Kysely<Database>): Promise<BenchTrunks> {
  const ingress = (
    await db
      .selectFrom('trunks')
      .select('trunk_id')
      .where('name', '=', 'Bench ingress')
      .executeTakeFirstOrThrow()
  ).trunk_id;
  const vendors = (
    await db.selectFrom('trunks').select('trunk_id').where('direction', '=', 'egress').execute()
  ).map((t) => t.trunk_id);
  return { ingress, vendors };
}

/** `count` attempts starting at `day` (ms, UTC), in batches of `batch` for POST /api/switch/cdr. */
export function cdrBatches(
  codes: string[],
  trunks: BenchTrunks,
  day: number,
  count: number,
  batch = 10_000,
  prefix = 'bench',
): { batch_id: string; cdrs: Record<string, unknown>[] }[] {
  const random = seeded(11);
  const out: { batch_id: string; cdrs: Record<string, unknown>[] }[] = [];
  for (let b = 0; b * batch < count; b++) {
    const cdrs: Record<string, unknown>[] = [];
    for (let i = 0; i < batch && b * batch + i < count; i++) {
      const n = b * batch + i;
      const code = codes[Math.floor(random() * codes.length)]!;
      const start = day + Math.floor((n * 86_000_000) / count);
      const duration = random() < 0.4 ? 0 : 1 + Math.floor(random() * 600);
      const answer = duration ? start + 2000 : null;
      cdrs.push({
        call_id: `${prefix}-${n}`,
        attempt: 1,
        is_final_attempt: true,
        start_time: new Date(start).toISOString(),
        answer_time: answer === null ? null : new Date(answer).toISOString(),
        end_time: new Date((answer ?? start + 4000) + duration * 1000).toISOString(),
        duration,
        ingress_trunk_id: trunks.ingress,
        egress_trunk_id: trunks.vendors[n % trunks.vendors.length],
        source_ip: '198.51.100.7',
        ani: '15550001111',
        dnis: (code + '1234567890').slice(0, 12),
        release_cause: duration ? 200 : 486,
        release_side: 'O',
        pdd_ms: 1000,
      });
    }
    out.push({ batch_id: `${prefix}-${b}`, cdrs });
  }
  return out;
}
