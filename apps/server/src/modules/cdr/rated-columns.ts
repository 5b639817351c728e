import { formatMoney, type CdrRating, type Micros } from '@tandem/domain';
import type { ArrayItem } from '../../db/arrays';

const m6 = (v: Micros) => formatMoney(v, 6);
const mm = (v: Micros | null) => (v === null ? null : m6(v));

/**
 * The `cdrs` columns a CDR's rating fills, with their types and how each is read from the rating:
 * what the ingest writes after rating a CDR and what a rerate rewrites (one list for both).
 */
export const RATED_COLUMNS: readonly (readonly [
  column: string,
  type: string,
  value: (r: CdrRating) => ArrayItem,
])[] = [
  ['ingress_client_id', 'int4', (r) => r.ingress.carrier_id],
  ['egress_client_id', 'int4', (r) => r.egress?.carrier_id ?? null],
  ['routing_dnis', 'text', (r) => r.ingress.number],
  ['ingress_rate_table_id', 'int4', (r) => r.ingress.rate_table_id],
  ['ingress_code', 'text', (r) => r.ingress.code],
  ['ingress_code_name', 'text', (r) => r.ingress.code_name],
  ['orig_country', 'text', (r) => r.ingress.country],
  ['ingress_rate', 'numeric', (r) => mm(r.ingress.rate)],
  ['ingress_setup_fee', 'numeric', (r) => mm(r.ingress.setup_fee)],
  ['ingress_rate_column', 'text', (r) => r.ingress.column],
  ['ingress_jurisdiction', 'text', (r) => r.ingress.jurisdiction],
  ['ingress_billed_time', 'int4', (r) => r.ingress.billed_seconds],
  ['ingress_client_cost', 'numeric', (r) => m6(r.ingress.cost)],
  ['short_call_charge', 'numeric', (r) => m6(r.short_call_charge)],
  ['egress_rate_table_id', 'int4', (r) => r.egress?.rate_table_id ?? null],
  ['egress_code', 'text', (r) => r.egress?.code ?? null],
  ['egress_code_name', 'text', (r) => r.egress?.code_name ?? null],
  ['term_country', 'text', (r) => r.egress?.country ?? null],
  ['egress_rate', 'numeric', (r) => mm(r.egress?.rate ?? null)],
  ['egress_setup_fee', 'numeric', (r) => mm(r.egress?.setup_fee ?? null)],
  ['egress_rate_column', 'text', (r) => r.egress?.column ?? null],
  ['egress_jurisdiction', 'text', (r) => r.egress?.jurisdiction ?? null],
  ['egress_billed_time', 'int4', (r) => r.egress?.billed_seconds ?? 0],
  ['egress_cost', 'numeric', (r) => m6(r.cost)],
  ['profit', 'numeric', (r) => m6(r.profit)],
  ['unpriced_reason', 'text', (r) => r.unpriced],
];
