/**
 * The trace of a routing decision, step by step, for the call simulation and routing analysis
 * tools. Built only when asked for, so the switch's hot path allocates none of it.
 */

export type TraceStepName =
  | 'ingress'
  | 'admission'
  | 'digits'
  | 'block_list'
  | 'monitoring'
  | 'ingress_rate'
  | 'routing_plan'
  | 'route'
  | 'egress'
  | 'result';

export type TraceOutcome = 'ok' | 'fail' | 'info';

export interface TraceStep {
  readonly step: TraceStepName;
  readonly outcome: TraceOutcome;
  /** One human-readable sentence. */
  readonly detail: string;
  /** The figures behind the sentence (ids, rates, counters), JSON-serialisable. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * Builds a step. Call it as `trace?.push(traceStep(...))`: optional chaining skips the whole
 * call, arguments included, when `trace` is null, so the hot path builds no strings.
 */
export function traceStep(
  step: TraceStepName,
  outcome: TraceOutcome,
  detail: string,
  data?: Readonly<Record<string, unknown>>,
): TraceStep {
  return data === undefined ? { step, outcome, detail } : { step, outcome, detail, data };
}
