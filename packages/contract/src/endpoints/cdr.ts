import { int4 } from '../input-rules';
import { z } from 'zod';
import { endpoint } from '../endpoint';

/**
 * The money path's calls (issue 10): CDR ingest from the switch. One CDR per call attempt; a batch
 * is stored, rated and billed in one transaction (docs/cdr.md).
 */

/** Release cause letters (spec 02 section 9): who or what ended the call. */
export const RELEASE_SIDES = ['N', 'O', 'T', 'M', 'D', 'H', 'B', 'S', 'A'] as const;
export type ReleaseSide = (typeof RELEASE_SIDES)[number];

/** Most CDRs in one batch. */
export const CDR_BATCH_MAX = 10_000;
const INT4 = 2_147_483_647;
/** Longest call attempt a CDR may describe: 7 days. */
export const CDR_MAX_SECONDS = 7 * 86_400;

/** A UTC instant as ISO 8601 with a zone (Z or an offset), between 2000 and 2100. */
export const cdrTime = z
  .string()
  .max(40)
  .refine(
    (v) => {
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/.test(v)) return false;
      const ms = Date.parse(v);
      return ms >= 946_684_800_000 && ms < 4_102_444_800_000;
    },
    { message: 'invalidValue' },
  );

const trunkId = int4().min(1).max(INT4);
const text = (max: number) => z.string().max(max);

export const cdrIn = z
  .object({
    call_id: z.string().min(1).max(128),
    attempt: int4().min(1).max(100),
    is_final_attempt: z.boolean(),
    start_time: cdrTime,
    answer_time: cdrTime.nullable(),
    end_time: cdrTime,
    /** Seconds from answer to end, whole; 0 when unanswered. */
    duration: int4().min(0).max(CDR_MAX_SECONDS),
    ingress_trunk_id: trunkId,
    /** Null when no vendor was tried (refused at routing). */
    egress_trunk_id: trunkId.nullable(),
    source_ip: z.string().min(1).max(64),
    ani: text(64),
    /** As the customer sent it (tech prefix included). */
    dnis: z.string().min(1).max(64),
    /** As sent to the vendor. */
    egress_dnis: text(64).nullable().optional(),
    lrn: text(32).nullable().optional(),
    /** Final SIP response code of the attempt (200 for an answered call). */
    release_cause: int4().min(100).max(699),
    q850_cause: int4().min(0).max(127).nullable().optional(),
    release_side: z.enum(RELEASE_SIDES),
    pdd_ms: int4().min(0).max(3_600_000),
    egress_host: text(128).nullable().optional(),
    codec: text(32).nullable().optional(),
    ring_time_ms: int4().min(0).max(3_600_000).nullable().optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    const start = Date.parse(c.start_time);
    const end = Date.parse(c.end_time);
    if (end < start) {
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'cdrEndBeforeStart', input: c.end_time });
      return;
    }
    if (end - start > CDR_MAX_SECONDS * 1000)
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'invalidValue', input: c.end_time });
    if (c.answer_time === null) {
      if (c.duration !== 0)
        ctx.addIssue({
          code: 'custom',
          path: ['duration'],
          message: 'cdrDurationUnanswered',
          input: c.duration,
        });
    } else {
      const answer = Date.parse(c.answer_time);
      if (answer < start || answer > end)
        ctx.addIssue({
          code: 'custom',
          path: ['answer_time'],
          message: 'cdrAnswerOutside',
          input: c.answer_time,
        });
      // duration is whole seconds from answer to end: allow the switch's rounding up to one second
      else if (c.duration > Math.ceil((end - answer) / 1000) + 1)
        ctx.addIssue({
          code: 'custom',
          path: ['duration'],
          message: 'cdrDurationTooLong',
          input: c.duration,
        });
    }
  });
export type CdrIn = z.output<typeof cdrIn>;

export const cdrBatch = z
  .object({
    batch_id: z.string().trim().min(1).max(128),
    cdrs: z.array(cdrIn).min(1).max(CDR_BATCH_MAX),
  })
  .strict();

export const cdrBatchResult = z.object({
  batch_id: z.string(),
  /** The batch id was stored before: nothing was changed; the counts are those of the first time. */
  duplicate: z.boolean(),
  received: z.number(),
  /** CDRs stored now. */
  stored: z.number(),
  /** CDRs skipped because their (call_id, attempt) was stored before. */
  duplicates: z.number(),
  /** CDRs stored without a price on a leg (shown with their reason; a rerate prices them). */
  unpriced: z.number(),
  /** Revenue and cost of the stored CDRs, decimal text. */
  revenue: z.string(),
  cost: z.string(),
});

export const switchCdr = endpoint({
  method: 'POST',
  path: '/switch/cdr',
  summary:
    'CDRs of finished call attempts (SIP proxy, X-Switch-Key), up to 10,000 a batch: stored, both legs rated, balances and ledger moved in one transaction; a batch id or (call_id, attempt) already stored is never billed twice',
  tag: 'switch',
  access: { kind: 'switch' },
  body: cdrBatch,
  payload: cdrBatchResult,
});
