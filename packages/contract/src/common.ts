import { coercedInt4, inInstantRange, int4 } from './input-rules';
import { z } from 'zod';

/** Query of every paged list (DESIGN section 3). */
export const listQuery = z.object({
  page: coercedInt4().min(0).default(0),
  per_page: coercedInt4().min(1).max(100000).default(10),
  order_by: z.string().max(64).optional(),
  order_dir: z.enum(['asc', 'desc']).default('asc'),
});
export type ListQuery = z.infer<typeof listQuery>;

export const paged = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: int4() });
export interface Paged<T> {
  items: T[];
  total: number;
}

export const idParams = z.object({ id: coercedInt4().positive() });
export const objectId = z.object({ object_id: int4() });
export const empty = z.object({}).strict();
export const nothing = z.null();

/** Booleans in queries arrive as strings. */
export const queryBool = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean(),
);

/** Timestamps travel as ISO 8601 strings in UTC. */
export const isoTime = z.string();
/** An instant in a query filter: ISO 8601 date or date-time; anything else is refused, not ignored. */
export const instantFilter = z
  .string()
  .max(40)
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && inInstantRange(Date.parse(v)),
    { message: 'invalidValue' },
  );

/** Letters (any script) and spaces only; trimmed. */
export const personName = z
  .string()
  .trim()
  .max(64)
  .regex(/^[\p{L} ]*$/u, { message: 'lettersAndSpaces' });

/** One e-mail address; a semicolon means the user tried several. */
export const singleEmail = z
  .string()
  .trim()
  .max(254)
  .refine((v) => !v.includes(';'), { message: 'onlyOneEmail' })
  .pipe(z.email({ message: 'invalidEmail' }));

/** A list of e-mail addresses (CC, recipients, notification lists): each must be valid, duplicates dropped. */
export const emailList = (max = 50) =>
  z
    .array(z.string().trim().pipe(singleEmail))
    .max(max)
    .transform((l) => [...new Set(l.map((e) => e.toLowerCase()))]);

/** Passwords in the portal dialogs: 8 to 15 characters. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 15;
export const portalPassword = z
  .string()
  .min(PASSWORD_MIN, { message: 'passwordLength' })
  .max(PASSWORD_MAX, { message: 'passwordLength' });

export const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** An IPv4 address, optionally with /bits. */
export const ipOrCidr = z
  .string()
  .trim()
  .refine(
    (v) => {
      const [ip, bits, ...rest] = v.split('/');
      if (rest.length || !ip || !IPV4.test(ip)) return false;
      return bits === undefined || (/^\d{1,2}$/.test(bits) && Number(bits) <= 32);
    },
    { message: 'invalidIp' },
  );
/** An IPv4 address, or '' when none is configured. */
export const optionalIpv4 = z
  .string()
  .trim()
  .refine((v) => v === '' || IPV4.test(v), { message: 'invalidIp' });
/** A TCP/UDP port 1..65535 (trunk hosts, LRN servers). */
export const portNumber = z
  .number({ message: 'digitsOnly' })
  .int({ message: 'digitsOnly' })
  .min(1, { message: 'invalidValue' })
  .max(65535, { message: 'invalidValue' });
