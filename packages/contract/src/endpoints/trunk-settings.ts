import { int4, INT4_MAX } from '../input-rules';
import { z } from 'zod';
import { IPV4, ipOrCidr, portNumber } from '../common';
import { digits } from '../crud';

/**
 * The tab settings of a trunk (spec 02 "Trunk edit"), stored in the trunk's jsonb columns. The
 * routing, digit and failover shapes mirror `@tandem/domain` (TrunkConfig, DigitReplacementRule,
 * DigitManipulationRule, FailoverRuleConfig) field for field, so the routing loader passes the stored
 * JSON through unchanged:
 *   trunks.digit_rules    = { replacements: DigitReplacementRule[], manipulations: DigitManipulationRule[] }
 *   trunks.failover_rules = FailoverRuleConfig[]
 *   trunk_hosts rows      = TrunkHostConfig (host -> ip, port, netmask)
 * Cross-field rules sit on the sub-schemas (so a PATCH that sends a whole tab is checked the same
 * way) and carry their extra message arguments in `params.args`.
 */

/** Whole number >= 0 ("must be valid positive integers"). */
export const count = z
  .number({ message: 'positiveInteger' })
  .int({ message: 'positiveInteger' })
  .min(0, { message: 'positiveInteger' })
  .max(INT4_MAX, { message: 'positiveInteger' });
/** A tech prefix: digits, # and *. */
export const techPrefix = z
  .string()
  .trim()
  .max(32)
  .regex(/^[0-9#*]*$/, { message: 'digitsOnly' });
/** A decimal percentage as a string, 0..100 (min profitability). */
export const percentText = z
  .union([z.string(), z.number().min(0).max(100)])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,3}(\.\d{1,4})?$/.test(v) && Number(v) <= 100, {
    message: 'percentRange',
  });

const larger = (a: string, b: string) => ({ message: 'cannotBeLarger', path: [a], params: { args: [a, b] } });
const notAbove = (a: number | null | undefined, b: number | null | undefined) =>
  a == null || b == null || a <= b;

export const HOSTNAME =
  /^(?=.{1,253}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** One host of a trunk: an IPv4 address with netmask, or a host name; port null = any. */
export const trunkHost = z
  .object({
    host_type: z.enum(['ip', 'hostname']).default('ip'),
    host: z.string().trim().min(1, { message: 'required' }).max(253),
    port: portNumber.nullable().default(null),
    netmask: z
      .number({ message: 'invalidValue' })
      .int({ message: 'invalidValue' })
      .min(0, { message: 'invalidValue' })
      .max(32, { message: 'invalidValue' })
      .nullable()
      .default(32),
  })
  .strict()
  .superRefine((h, ctx) => {
    if (h.host_type === 'ip') {
      if (!IPV4.test(h.host)) ctx.addIssue({ code: 'custom', path: ['host'], message: 'invalidIp' });
      if (h.netmask === null) ctx.addIssue({ code: 'custom', path: ['netmask'], message: 'netmaskRequired' });
    } else if (!HOSTNAME.test(h.host) || IPV4.test(h.host)) {
      ctx.addIssue({ code: 'custom', path: ['host'], message: 'invalidHost', params: { args: [h.host] } });
    }
  });
export type TrunkHost = z.output<typeof trunkHost>;
/** What makes two host entries the same: host text and port (null = any port). */
export const hostKey = (h: { host: string; port: number | null }) =>
  `${h.host.trim().toLowerCase()}${h.port === null ? '' : ':' + h.port}`;

/** Each IP (with its port) can be entered once per trunk. */
export const trunkHosts = z
  .array(trunkHost)
  .max(100)
  .superRefine((hosts, ctx) => {
    const seen = new Set<string>();
    hosts.forEach((h, i) => {
      const k = hostKey(h);
      if (seen.has(k))
        ctx.addIssue({ code: 'custom', path: [i, 'host'], message: 'ipEnteredTwice', params: { args: [k] } });
      seen.add(k);
    });
  });

/** Timeout settings (null = the system default). */
export const trunkTimeouts = z
  .object({
    pdd_timeout_ms: count.nullable().default(null),
    ring_timer: count.nullable().default(null),
    call_timeout: count.nullable().default(null),
    reinvite_interval: count.nullable().default(null),
    min_duration: count.nullable().default(null),
    max_duration: count.nullable().default(null),
  })
  .strict()
  .refine((t) => notAbove(t.min_duration, t.max_duration), larger('min_duration', 'max_duration'));

const numberField = z.enum(['ani', 'dnis']);
const length = count.max(64, { message: 'invalidValue' });

/** domain DigitReplacementRule: the longest matching prefix within the length bounds is replaced. */
export const digitReplacementRule = z
  .object({
    field: numberField,
    prefix: digits(32),
    min_length: length.nullable().default(null),
    max_length: length.nullable().default(null),
    replacement: digits(32).default(''),
  })
  .strict()
  .refine((r) => notAbove(r.min_length, r.max_length), larger('min_length', 'max_length'));

/** domain DigitManipulationRule: applied in order when the prefix and length condition hold. */
export const digitManipulationRule = z
  .object({
    field: numberField,
    action: z.enum(['add_prefix', 'remove_prefix', 'replace_prefix']),
    prefix: digits(32).nullable().default(null),
    length_condition: z.enum(['more', 'less', 'equal']).nullable().default(null),
    number_length: length.nullable().default(null),
    remove_count: length.nullable().default(null),
    digits: digits(32).nullable().default(null),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.action !== 'remove_prefix' && !r.digits)
      ctx.addIssue({ code: 'custom', path: ['digits'], message: 'required' });
    if (r.length_condition !== null && r.number_length === null)
      ctx.addIssue({ code: 'custom', path: ['number_length'], message: 'required' });
  });

export const digitRules = z
  .object({
    replacements: z.array(digitReplacementRule).max(100).default([]),
    manipulations: z.array(digitManipulationRule).max(100).default([]),
  })
  .strict();

const sipCode = z
  .number({ message: 'invalidValue' })
  .int({ message: 'invalidValue' })
  .min(300, { message: 'invalidValue' })
  .max(699, { message: 'invalidValue' });
/** domain FailoverRuleConfig: a vendor's SIP code -> try the next vendor, or return a code/clause. */
export const failoverRule = z
  .object({
    sip_code: sipCode,
    action: z.enum(['next', 'return']),
    return_code: sipCode.nullable().default(null),
    return_clause: z.string().trim().max(200).nullable().default(null),
  })
  .strict();
export const failoverRules = z
  .array(failoverRule)
  .max(100)
  .superRefine((rules, ctx) => {
    const seen = new Set<number>();
    rules.forEach((r, i) => {
      if (seen.has(r.sip_code))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'sip_code'],
          message: 'alreadyExists',
          params: { args: ['SIP code', r.sip_code] },
        });
      seen.add(r.sip_code);
    });
  });

/** Pass-through of identity headers and protocol options (true = passed to the other leg). */
export const identityOptions = z
  .object({
    rpid: z.boolean().default(false),
    paid: z.boolean().default(false),
    oli: z.boolean().default(false),
    priv: z.boolean().default(false),
    div: z.boolean().default(false),
    pci: z.boolean().default(false),
  })
  .strict();

/** Enforce CID block and auto call block (DNC, wireless, non-US numbers). */
export const blocking = z
  .object({
    cid_block: z.boolean().default(false),
    dnc: z.boolean().default(false),
    wireless: z.boolean().default(false),
    non_us: z.boolean().default(false),
  })
  .strict();

/** Ingress capacity: max CPS and max concurrent calls (null = unlimited). */
export const capacity = z
  .object({ max_cps: count.nullable().default(null), max_cap: count.nullable().default(null) })
  .strict();

export const ATTESTATIONS = ['A', 'B', 'C'] as const;
/** STIR/SHAKEN policy: verification and signing, attestation per ANI group, re-sign, P-header, verstat. */
export const stirShaken = z
  .object({
    verification: z.enum(['none', 'verify', 'verify_reject']).default('none'),
    signing: z.enum(['none', 'sign', 'pass_through']).default('none'),
    default_attestation: z.enum(ATTESTATIONS).nullable().default(null),
    attestations: z
      .array(
        z
          .object({
            ani_group: z.string().trim().min(1, { message: 'required' }).max(100),
            level: z.enum(ATTESTATIONS),
          })
          .strict(),
      )
      .max(100)
      .default([])
      .superRefine((rows, ctx) => {
        const seen = new Set<string>();
        rows.forEach((r, i) => {
          const k = r.ani_group.toLowerCase();
          if (seen.has(k))
            ctx.addIssue({
              code: 'custom',
              path: [i, 'ani_group'],
              message: 'alreadyExists',
              params: { args: ['ANI group', r.ani_group] },
            });
          seen.add(k);
        });
      }),
    resign: z.boolean().default(false),
    p_header: z.boolean().default(false),
    verstat: z.boolean().default(false),
  })
  .strict();

const score = count.max(100, { message: 'percentRange' });
/** Spam-scoring service thresholds (0..100; null = not checked). */
export const spamScoring = z
  .object({
    enabled: z.boolean().default(false),
    max_spam_score: score.nullable().default(null),
    fraud_probability: score.nullable().default(null),
    tcpa_probability: score.nullable().default(null),
  })
  .strict();

/** SIP registration credentials (auth type registration or register-to-gateway). */
export const registration = z
  .object({
    username: z.string().trim().max(64).default(''),
    password: z.string().max(64).default(''),
    realm: z.string().trim().max(253).default(''),
    gateway_host: z.string().trim().max(253).default(''),
    gateway_port: portNumber.nullable().default(null),
    expires: count.max(86400, { message: 'invalidValue' }).default(3600),
  })
  .strict();

/** One SIP profile per name on a trunk. */
export const sipProfiles = z
  .array(z.string().trim().min(1, { message: 'required' }).max(64))
  .max(20)
  .superRefine((names, ctx) => {
    const seen = new Set<string>();
    names.forEach((n, i) => {
      if (seen.has(n.toLowerCase()))
        ctx.addIssue({ code: 'custom', path: [i], message: 'duplicateSipProfile', params: { args: [n] } });
      seen.add(n.toLowerCase());
    });
  });

/** domain IngressRoutingRowConfig plus the product it came from (ingress trunks only). */
export const routingRow = z
  .object({
    product_id: int4().positive().nullable().default(null),
    tech_prefix: techPrefix.default(''),
    rate_table_id: int4().positive().nullable().default(null),
    routing_plan_id: int4().positive().nullable().default(null),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.product_id !== null) return;
    if (r.rate_table_id === null)
      ctx.addIssue({ code: 'custom', path: ['rate_table_id'], message: 'required' });
    if (r.routing_plan_id === null)
      ctx.addIssue({ code: 'custom', path: ['routing_plan_id'], message: 'required' });
  });
export const routingRows = z
  .array(routingRow)
  .max(200)
  .superRefine((rows, ctx) => {
    const seen = new Set<string>();
    rows.forEach((r, i) => {
      if (seen.has(r.tech_prefix))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'tech_prefix'],
          message: 'alreadyExists',
          params: { args: ['Tech prefix', r.tech_prefix] },
        });
      seen.add(r.tech_prefix);
    });
  });

export const CODECS = [
  'G711U',
  'G711A',
  'G729',
  'G722',
  'G723',
  'G726',
  'GSM',
  'iLBC',
  'OPUS',
  'AMR',
  'AMR-WB',
  'SPEEX',
] as const;
export const ROUNDINGS = [6, 12, 18, 24] as const;

/**
 * Every field of a trunk except its owner, name and type: the body of the trunk tabs, and what a
 * trunk template stores.
 */
export const trunkSettingsFields = {
  trunk_type2: z.enum(['termination', 'did']).default('termination'),
  auth_type: z.enum(['host', 'registration', 'register_gateway']).default('host'),
  host_strategy: z.enum(['top_down', 'round_robin']).default('top_down'),
  tech_prefix: techPrefix.default(''),
  rate_table_id: int4().positive().nullable().default(null),
  routing_plan_id: int4().positive().nullable().default(null),
  bill_by: z.enum(['dnis', 'lrn']).default('dnis'),
  billing_mode: z.enum(['minutes', 'port']).default('minutes'),
  rounding: int4()
    .refine((v) => (ROUNDINGS as readonly number[]).includes(v), { message: 'invalidValue' })
    .nullable()
    .default(null),
  min_profitability: percentText.nullable().default(null),
  random_ani_group_id: int4().positive().nullable().default(null),
  call_limit: count.nullable().default(null),
  cps_limit: count.nullable().default(null),
  sip_sessions: count.default(10),
  sip_cps_limit: count.default(1),
  media_type: z.enum(['bypass', 'proxy', 'transcoding']).default('proxy'),
  protocol: z.enum(['udp', 'tcp', 'tls']).default('udp'),
  t38: z.boolean().default(false),
  ignore_early_media: z.boolean().default(false),
  ignore_early_no_sdp: z.boolean().default(false),
  codecs: z
    .array(z.enum(CODECS))
    .min(1, { message: 'required' })
    .max(CODECS.length)
    .refine((c) => new Set(c).size === c.length, { message: 'invalidValue' })
    .default(['G711U', 'G711A', 'G729']),
  timeouts: trunkTimeouts.default({
    pdd_timeout_ms: null,
    ring_timer: null,
    call_timeout: null,
    reinvite_interval: null,
    min_duration: null,
    max_duration: null,
  }),
  digit_rules: digitRules.default({ replacements: [], manipulations: [] }),
  identity_options: identityOptions.default({
    rpid: false,
    paid: false,
    oli: false,
    priv: false,
    div: false,
    pci: false,
  }),
  blocking: blocking.default({ cid_block: false, dnc: false, wireless: false, non_us: false }),
  capacity: capacity.default({ max_cps: null, max_cap: null }),
  failover_rules: failoverRules.default([]),
  stir_shaken: stirShaken.default({
    verification: 'none',
    signing: 'none',
    default_attestation: null,
    attestations: [],
    resign: false,
    p_header: false,
    verstat: false,
  }),
  spam_scoring: spamScoring.default({
    enabled: false,
    max_spam_score: null,
    fraud_probability: null,
    tcpa_probability: null,
  }),
  allowed_send_to_ips: z.array(ipOrCidr).max(100).default([]),
  sip_profiles: sipProfiles.default([]),
};
export const trunkSettings = z.object(trunkSettingsFields).strict();
export type TrunkSettings = z.output<typeof trunkSettings>;

/** The stored settings of a fresh trunk (what the new-trunk form starts from). */
export const defaultTrunkSettings = (): TrunkSettings => trunkSettings.parse({});
