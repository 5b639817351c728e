import { allows, api } from '@tandem/contract';
import { toMicros } from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains } from '../../db/paging';
import { actorOf } from '../../http/context';
import { serializeRow, type CrudTable } from '../../http/crud';
import { duplicate, forbidden, invalidField } from '../../http/errors';
import type { Services } from '../../services';

const { NOTIFICATIONS, CREDIT_FUNC } = api.carriers;
type Row = Record<string, unknown>;

/** Flat API fields kept in the carrier's jsonb columns: API name -> [column, key]. */
const JSON_FIELDS: Record<string, [string, string]> = {
  ...Object.fromEntries(NOTIFICATIONS.map((n) => [`notify_${n}`, ['notifications', n]])),
  vendor_trunk_access: ['vendor_permissions', 'trunk'],
  vendor_block_list: ['vendor_permissions', 'block_list'],
  vendor_cdrs: ['vendor_permissions', 'cdrs'],
  vendor_summary_report: ['vendor_permissions', 'summary_report'],
  invoice_include_tax: ['invoice_options', 'include_tax'],
  invoice_attach_cdr: ['invoice_options', 'attach_cdr'],
  invoice_include_summary: ['invoice_options', 'include_summary'],
};
/** Defaults of the flat fields for rows stored before a key existed. */
const JSON_DEFAULTS = api.carriers.carrierCreate
  .pick(Object.fromEntries(Object.keys(JSON_FIELDS).map((k) => [k, true])) as never)
  .parse({}) as Row;

/** Body -> columns: flat fields folded into their jsonb column (merged with the stored one). */
export function carrierColumns(body: Row, before: Row | null): Row {
  const out: Row = {};
  const json: Record<string, Row> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'login_name' || k === 'passwd') continue;
    const target = JSON_FIELDS[k];
    if (!target) {
      out[k] = v;
      continue;
    }
    json[target[0]] ??= { ...((before?.[target[0]] as Row | undefined) ?? {}) };
    json[target[0]]![target[1]] = v;
  }
  for (const [col, v] of Object.entries(json)) out[col] = JSON.stringify(v);
  out.updated_at = new Date();
  return out;
}

/** A selected row -> its API shape (jsonb columns unfolded into the flat fields). */
export function carrierRowOf(r: Row): Row {
  const out = serializeRow(r);
  for (const [k, [col, key]] of Object.entries(JSON_FIELDS)) {
    const v = (r[col] as Row | null)?.[key];
    out[k] = v === undefined ? JSON_DEFAULTS[k] : v;
  }
  delete out.notifications;
  delete out.vendor_permissions;
  delete out.invoice_options;
  return out;
}

const sameAmount = (a: unknown, b: unknown) =>
  toMicros(String((a as string | null) ?? '0')) === toMicros(String((b as string | null) ?? '0'));

/** The carrier's portal user: the first client user of the carrier. */
export const portalUserOf = (db: Db, clientId: number) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('user_type', '=', 'client')
    .orderBy('user_id')
    .limit(1)
    .executeTakeFirst();

export const carrierSelect = (db: Db) =>
  db
    .selectFrom('carriers as c')
    .leftJoin('payment_terms as pt', 'pt.payment_term_id', 'c.payment_term_id')
    .selectAll('c')
    .select('pt.name as payment_term_name')
    .select([
      sql<
        string | null
      >`(select u.name from users u where u.client_id = c.client_id and u.user_type = 'client' order by u.user_id limit 1)`.as(
        'login_name',
      ),
      sql<number>`(select count(*)::int from trunks t where t.carrier_id = c.client_id)`.as('trunk_count'),
      sql<number>`(select count(*)::int from trunks t where t.carrier_id = c.client_id and t.direction = 'ingress')`.as(
        'ingress_count',
      ),
      sql<number>`(select count(*)::int from trunks t where t.carrier_id = c.client_id and t.direction = 'egress')`.as(
        'egress_count',
      ),
    ]);

/**
 * Carriers on the generic CRUD: uniqueness of the name, the main e-mail and the portal user name;
 * the credit limit guarded by Credit Management write; the portal user written with the carrier;
 * delete refused while trunks, products or invoices refer to it. Every write rebuilds the routing
 * snapshot (an inactive carrier's calls are rejected).
 */
export function carrierTable(s: Services): CrudTable<typeof api.carriers.carrier> {
  return {
    table: 'carriers',
    id: 'client_id',
    entity: 'carrier',
    label: 'Carrier',
    select: carrierSelect,
    selectId: 'c.client_id',
    sortable: {
      name: 'c.name',
      client_id: 'c.client_id',
      company: 'c.company',
      balance: 'c.balance',
      credit_limit: 'c.credit_limit',
      mode: 'c.mode',
      is_active: 'c.is_active',
      created_at: 'c.created_at',
      trunk_count: 'trunk_count',
      client_type: 'c.client_type',
      currency: 'c.currency',
    },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name
        ? qb.where((eb) =>
            eb.or([
              eb(sql.ref('c.name'), 'ilike', likeContains(q.name!)),
              eb(sql.ref('c.company'), 'ilike', likeContains(q.name!)),
            ]),
          )
        : qb;
      for (const k of [
        'client_type',
        'company_type',
        'is_active',
        'payment_term_id',
        'mode',
        'registration_status',
        'agent_id',
      ] as const) {
        if (q[k] !== undefined) r = r.where(sql.ref(`c.${k}`), '=', q[k]);
      }
      return r;
    },
    scope: (qb, actor) =>
      actor.type === 'admin' ? qb : qb.where(sql.ref('c.client_id'), '=', actor.clientId ?? -1),
    unique: [{ column: 'name', field: 'name' }],
    toColumns: carrierColumns,
    toRow: carrierRowOf,
    validate: async (trx, body, before, ctx) => {
      const id = (before?.client_id as number | undefined) ?? null;
      if (typeof body.main_email === 'string') {
        let q = trx
          .selectFrom('carriers')
          .select('client_id')
          .where(sql<string>`lower(main_email)`, '=', body.main_email.toLowerCase());
        if (id !== null) q = q.where('client_id', '!=', id);
        if (await q.executeTakeFirst()) throw duplicate('main_email', 'Main e-mail', body.main_email);
      }
      const own = id !== null ? await portalUserOf(trx, id) : undefined;
      if (typeof body.login_name === 'string') {
        let q = trx
          .selectFrom('users')
          .select('user_id')
          .where(sql<string>`lower(name)`, '=', body.login_name.toLowerCase());
        if (own) q = q.where('user_id', '!=', own.user_id);
        if (await q.executeTakeFirst()) throw duplicate('login_name', 'Carrier username', body.login_name);
        if (!own && !body.passwd) throw invalidField('passwd', 'required', ['passwd']);
      } else if (body.passwd && !own) throw invalidField('login_name', 'required', ['login_name']);
      if (
        body.payment_term_id != null &&
        !(await trx
          .selectFrom('payment_terms')
          .select('payment_term_id')
          .where('payment_term_id', '=', body.payment_term_id as number)
          .executeTakeFirst())
      )
        throw invalidField('payment_term_id', 'invalidValue', ['payment_term_id']);
      if (
        body.agent_id != null &&
        !(await trx
          .selectFrom('agents')
          .select('agent_id')
          .where('agent_id', '=', body.agent_id as number)
          .executeTakeFirst())
      )
        throw invalidField('agent_id', 'invalidValue', ['agent_id']);
      // Setting or changing a credit limit is the finance right "modify credit limit".
      if (
        body.credit_limit !== undefined &&
        !sameAmount(body.credit_limit, before?.credit_limit ?? '0') &&
        !allows(actorOf(ctx).grants, CREDIT_FUNC, 'write')
      )
        throw forbidden();
    },
    children: async (trx, id, body) => {
      const login = body.login_name as string | null | undefined;
      const passwd = body.passwd as string | undefined;
      if (!login && !passwd) return;
      const own = await portalUserOf(trx, id);
      const hash = passwd ? await s.auth.hash(passwd) : undefined;
      if (own) {
        await trx
          .updateTable('users')
          .set({
            ...(login ? { name: login } : {}),
            ...(hash ? { password_hash: hash } : {}),
            updated_at: new Date(),
          })
          .where('user_id', '=', own.user_id)
          .execute();
        return;
      }
      if (!login || !hash) return;
      const c = await trx
        .selectFrom('carriers')
        .select(['main_email', 'is_active'])
        .where('client_id', '=', id)
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('users')
        .values({
          name: login,
          password_hash: hash,
          email: c.main_email,
          user_type: 'client',
          client_id: id,
          updated_at: new Date(),
        })
        .execute();
    },
    usage: async (db, id) => {
      const n = (q: Promise<{ n: number } | undefined>) => q.then((r) => Number(r?.n ?? 0));
      const [ingress, egress, products, invoices] = await Promise.all([
        n(
          db
            .selectFrom('trunks')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('carrier_id', '=', id)
            .where('direction', '=', 'ingress')
            .executeTakeFirst(),
        ),
        n(
          db
            .selectFrom('trunks')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('carrier_id', '=', id)
            .where('direction', '=', 'egress')
            .executeTakeFirst(),
        ),
        n(
          db
            .selectFrom('product_carriers')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('carrier_id', '=', id)
            .executeTakeFirst(),
        ),
        n(
          db
            .selectFrom('invoices')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('client_id', '=', id)
            .executeTakeFirst(),
        ),
      ]);
      return [
        { what: 'ingress trunk(s)', count: ingress },
        { what: 'egress trunk(s)', count: egress },
        { what: 'product(s)', count: products },
        { what: 'invoice(s)', count: invoices },
      ];
    },
    afterWrite: () => s.configChanged.notify(),
  };
}
