import fs from 'node:fs';
import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { likeContains, pageOf, withIsoTimes, newestFirst } from '../../db/paging';
import { actorOf, type Actor } from '../../http/context';
import { implementCrud } from '../../http/crud';
import { AppError, duplicate, invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { fileKindOf } from '../rates/import/read-rows';
import { receiveUpload } from '../rates/upload';
import { runDidCharges } from './charges';
import { DID_IMPORT_JOB, defineDidImportJob, didUploadDir } from './import-job';
import { fieldCatalogue } from '../cdr-search/routes';
import { callAttempts, chosenFields, searchPage } from '../cdr-search/search';
import { requestViewer } from '../cdr-search/viewer';
import { checkIngressHostsFree } from '../trunks/hosts';
import {
  assign,
  importNumbers,
  lockDids,
  numbersOf,
  release,
  remove,
  requireClient,
  requireVendor,
  reserve,
  unassign,
} from './service';
import { ErrorCode } from '@tandem/contract';

type VendorBody = z.output<typeof api.did.vendorBody>;
type ClientBody = z.output<typeof api.did.clientBody>;

const who = (a: Actor) => ({ user_id: a.user.user_id, name: a.user.name });

/** Writes of DID vendors and clients (the carrier, its DID trunk and hosts, its DID terms, the portal user). */
export function didCarrierWriters(s: Services) {
  async function uniqueCarrier(trx: Db, name: string, except: number | null, label: string) {
    let q = trx
      .selectFrom('carriers')
      .select('client_id')
      .where(sql`lower(name)`, '=', name.toLowerCase());
    if (except !== null) q = q.where('client_id', '<>', except);
    if (await q.executeTakeFirst()) throw duplicate('name', label, name);
    let t = trx
      .selectFrom('trunks')
      .select('trunk_id')
      .where(sql`lower(name)`, '=', `${name} DID`.toLowerCase());
    if (except !== null) t = t.where('carrier_id', '<>', except);
    if (await t.executeTakeFirst()) throw duplicate('name', 'Trunk', `${name} DID`);
  }
  /**
   * A DID vendor's or client's edit reaching its trunk: the trunk is named "<name> DID", takes the
   * given fields the body changed (undefined = unchanged), and the hosts when given.
   */
  async function updateDidTrunk(
    trx: Db,
    trunkId: number | null,
    b: { name?: string; hosts?: readonly string[] },
    fields: Record<string, unknown>,
    direction: 'ingress' | 'egress',
  ) {
    if (trunkId === null) return;
    const t = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    if (b.name !== undefined) t.name = `${b.name} DID`;
    if (Object.keys(t).length)
      await trx
        .updateTable('trunks')
        .set({ ...t, updated_at: new Date() })
        .where('trunk_id', '=', trunkId)
        .execute();
    if (b.hosts !== undefined) await setHosts(trx, trunkId, b.hosts, direction);
  }

  /**
   * A DID trunk's IPs. A vendor's trunk is an ingress trunk: calls are told apart by their source,
   * so its IPs go through the same check as a termination ingress trunk's (trunks/hosts.ts: an IP
   * belongs to one ingress trunk, whichever kind). A client's trunk is an egress trunk (where its
   * numbers ring): as for any egress trunk its IPs may also be another trunk's (a PBX that sends
   * termination traffic from the address its DIDs ring at is common).
   */
  async function setHosts(
    trx: Db,
    trunkId: number,
    hosts: readonly string[],
    direction: 'ingress' | 'egress',
  ) {
    const seen = new Set<string>();
    hosts.forEach((h, i) => {
      if (seen.has(h)) throw invalidField(`hosts.${i}`, 'alreadyExists', ['IP', h]);
      seen.add(h);
    });
    if (direction === 'ingress')
      await checkIngressHostsFree(
        trx,
        hosts.map((h) => ({ host: h.split('/')[0] as string, port: null })),
        trunkId,
        (i) => `hosts.${i}`,
      );
    await trx.deleteFrom('trunk_hosts').where('trunk_id', '=', trunkId).execute();
    if (hosts.length === 0) return;
    await trx
      .insertInto('trunk_hosts')
      .values(
        hosts.map((h, i) => {
          const [ip, bits] = h.split('/');
          return { trunk_id: trunkId, host: ip as string, netmask: bits ? Number(bits) : 32, ordering: i };
        }),
      )
      .execute();
  }
  async function checkRule(trx: Db, id: number | null | undefined, field: string) {
    if (id == null) return;
    const r = await trx.selectFrom('did_billing_rules').select('id').where('id', '=', id).executeTakeFirst();
    if (!r) throw invalidField(field, 'referenceMissing', [field]);
  }

  async function createVendor(trx: Db, b: VendorBody, actor: Pick<Actor, 'user'> | null): Promise<number> {
    await uniqueCarrier(trx, b.name, null, 'Vendor');
    await checkRule(trx, b.billing_rule_id, 'billing_rule_id');
    const c = await trx
      .insertInto('carriers')
      .values({
        name: b.name,
        client_type: 'vendor',
        company_type: 'origination',
        mode: 'postpaid',
        unlimited_credit: true,
        updated_at: new Date(),
      })
      .returning('client_id')
      .executeTakeFirstOrThrow();
    const t = await trx
      .insertInto('trunks')
      .values({
        carrier_id: c.client_id,
        name: `${b.name} DID`,
        direction: 'ingress',
        trunk_type2: 'did',
        tech_prefix: b.tech_prefix,
        call_limit: b.call_limit,
        media_type: b.media_type,
        updated_at: new Date(),
      })
      .returning('trunk_id')
      .executeTakeFirstOrThrow();
    await setHosts(trx, t.trunk_id, b.hosts, 'ingress');
    await trx
      .insertInto('did_vendors')
      .values({
        carrier_id: c.client_id,
        trunk_id: t.trunk_id,
        decimal_places: b.decimal_places,
        billing_rule_id: b.billing_rule_id,
        auth_type: b.auth_type,
      })
      .execute();
    await s.audit.record(trx, actor, 'did_vendor', c.client_id, 'create', null, b);
    return c.client_id;
  }

  async function portalUser(trx: Db, carrierId: number, b: Partial<ClientBody>) {
    const login = b.username ?? '';
    const passwd = b.password ?? '';
    if (!login && !passwd) return;
    const own = await trx
      .selectFrom('users')
      .select('user_id')
      .where('client_id', '=', carrierId)
      .executeTakeFirst();
    if (!own && (!login || !passwd))
      throw invalidField(login ? 'password' : 'username', 'didCredentialsPair');
    if (login) {
      let q = trx
        .selectFrom('users')
        .select('user_id')
        .where(sql`lower(name)`, '=', login.toLowerCase());
      if (own) q = q.where('user_id', '<>', own.user_id);
      if (await q.executeTakeFirst()) throw duplicate('username', 'Username', login);
    }
    if (passwd && (passwd.length < 8 || passwd.length > 20)) throw invalidField('password', 'passwordLength');
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
    await trx
      .insertInto('users')
      .values({
        name: login,
        password_hash: hash as string,
        email: b.main_email ?? '',
        user_type: 'client',
        client_id: carrierId,
        updated_at: new Date(),
      })
      .execute();
  }

  async function createClient(trx: Db, b: ClientBody, actor: Pick<Actor, 'user'> | null): Promise<number> {
    await uniqueCarrier(trx, b.name, null, 'Client');
    await checkRule(trx, b.billing_rule_id, 'billing_rule_id');
    if (b.did_product_id !== null) {
      const p = await trx
        .selectFrom('did_products')
        .select('id')
        .where('id', '=', b.did_product_id)
        .executeTakeFirst();
      if (!p) throw invalidField('did_product_id', 'referenceMissing', ['did_product_id']);
    }
    const c = await trx
      .insertInto('carriers')
      .values({
        name: b.name,
        company: b.company,
        client_type: 'client',
        company_type: 'origination',
        main_email: b.main_email,
        address: b.address,
        mode: b.mode,
        credit_limit: b.credit_limit,
        test_credit: b.test_credit,
        call_limit: b.channels > 0 ? b.channels : null,
        is_panel_didrequest: true,
        is_panel_mydid: true,
        updated_at: new Date(),
      })
      .returning('client_id')
      .executeTakeFirstOrThrow();
    const t = await trx
      .insertInto('trunks')
      .values({
        carrier_id: c.client_id,
        name: `${b.name} DID`,
        direction: 'egress',
        trunk_type2: 'did',
        auth_type: b.auth_type,
        media_type: b.media_type,
        t38: b.t38,
        updated_at: new Date(),
      })
      .returning('trunk_id')
      .executeTakeFirstOrThrow();
    await setHosts(trx, t.trunk_id, b.hosts, 'egress');
    await trx
      .insertInto('did_clients')
      .values({
        carrier_id: c.client_id,
        trunk_id: t.trunk_id,
        billing_rule_id: b.billing_rule_id,
        did_product_id: b.did_product_id,
        auth_type: b.auth_type,
        round_up: b.round_up,
        channels: b.channels,
        grace_days: b.grace_days,
        buy_needs_approval: b.buy_needs_approval,
        signin_notification: b.signin_notification,
      })
      .execute();
    await portalUser(trx, c.client_id, b);
    const { password: _p, ...logged } = b;
    await s.audit.record(trx, actor, 'did_client', c.client_id, 'create', null, logged);
    return c.client_id;
  }

  return { uniqueCarrier, setHosts, updateDidTrunk, checkRule, createVendor, portalUser, createClient };
}

/** Module registration: every DID call (docs/did.md). */
export function registerDid(app: FastifyInstance, s: Services): void {
  const changed = () => s.configChanged.notify();
  /** One transaction, its modification log row, then the routing engine is told. */
  const write = async <T>(fn: (trx: Db) => Promise<T>): Promise<T> => {
    const out = await s.db.transaction().execute(fn);
    changed();
    return out;
  };

  // ----------------------------------------------------------------------------------------------
  // Billing rules and products
  // ----------------------------------------------------------------------------------------------
  const ruleUse = async (db: Db, id: number) => {
    const r = await db
      .selectFrom('dids')
      .select(sql<number>`count(*)::int`.as('n'))
      .where((e) => e.or([e('vendor_billing_rule_id', '=', id), e('client_billing_rule_id', '=', id)]))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };
  implementCrud(app, s, api.did.billingRule, {
    table: 'did_billing_rules',
    id: 'id',
    entity: 'did_billing_rule',
    label: 'DID Billing Rule',
    select: (db) =>
      db
        .selectFrom('did_billing_rules as r')
        .select(['r.id', 'r.name', 'r.type', 'r.updated_at', 'r.updated_by'])
        .select(sql<string>`r.monthly_price::text`.as('monthly_price'))
        .select(sql<string>`r.per_minute::text`.as('per_minute'))
        .select(sql<string>`r.per_channel::text`.as('per_channel'))
        .select(sql<string>`r.setup_fee::text`.as('setup_fee'))
        .select(
          sql<number>`(select count(*)::int from dids d where d.vendor_billing_rule_id = r.id or d.client_billing_rule_id = r.id)`.as(
            'did_count',
          ),
        ),
    selectId: 'r.id',
    sortable: {
      name: 'r.name',
      id: 'r.id',
      type: 'r.type',
      updated_at: 'r.updated_at',
      did_count: 'did_count',
    },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('r.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
    usage: async (db, id) => [{ what: 'DID(s)', count: await ruleUse(db, id) }],
    inUseKey: 'didRuleInUse',
    afterWrite: changed,
  });

  implementCrud(app, s, api.did.product, {
    table: 'did_products',
    id: 'id',
    entity: 'did_product',
    label: 'DID Product',
    select: (db) =>
      db
        .selectFrom('did_products as p')
        .innerJoin('did_billing_rules as r', 'r.id', 'p.billing_rule_id')
        .select(['p.id', 'p.name', 'p.billing_rule_id', 'p.description', 'p.updated_at'])
        .select('r.name as billing_rule_name')
        .select(
          sql<number>`(select count(*)::int from did_clients c where c.did_product_id = p.id)`.as(
            'client_count',
          ),
        ),
    selectId: 'p.id',
    sortable: { name: 'p.name', id: 'p.id', updated_at: 'p.updated_at' },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('p.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    references: [{ field: 'billing_rule_id', table: 'did_billing_rules' }],
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
    usage: async (db, id) => {
      const r = await db
        .selectFrom('did_clients')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('did_product_id', '=', id)
        .executeTakeFirstOrThrow();
      return [{ what: 'DID client(s)', count: Number(r.n) }];
    },
    afterWrite: changed,
  });

  // ----------------------------------------------------------------------------------------------
  // Vendors and clients: a carrier of company type origination with its DID trunk
  // ----------------------------------------------------------------------------------------------
  const hostsOf = sql<
    string[]
  >`coalesce((select array_agg(h.host || case when h.netmask < 32 then '/' || h.netmask else '' end order by h.ordering, h.id) from trunk_hosts h where h.trunk_id = t.trunk_id), '{}')`;

  const vendorQuery = (db: Db) =>
    db
      .selectFrom('did_vendors as v')
      .innerJoin('carriers as c', 'c.client_id', 'v.carrier_id')
      .leftJoin('trunks as t', 't.trunk_id', 'v.trunk_id')
      .leftJoin('did_billing_rules as r', 'r.id', 'v.billing_rule_id')
      .select([
        'v.carrier_id',
        'c.name',
        'c.is_active',
        'v.trunk_id',
        'v.decimal_places',
        'v.billing_rule_id',
        'v.auth_type',
      ])
      .select(sql<number | null>`t.call_limit`.as('call_limit'))
      .select(sql<string>`coalesce(t.tech_prefix, '')`.as('tech_prefix'))
      .select(sql<'bypass' | 'proxy' | 'transcoding'>`coalesce(t.media_type, 'proxy')`.as('media_type'))
      .select(sql<string | null>`r.name`.as('billing_rule_name'))
      .select(hostsOf.as('hosts'))
      .select(
        sql<number>`(select count(*)::int from dids d where d.vendor_id = v.carrier_id)`.as('did_count'),
      )
      .select(sql<string>`c.balance::text`.as('balance'));

  implement(app, s, api.did.listVendors, async (ctx) => {
    let qb = vendorQuery(s.db);
    if (ctx.query.name) qb = qb.where('c.name', 'ilike', likeContains(ctx.query.name));
    return pageOf(
      qb,
      ctx.query,
      { name: 'c.name', carrier_id: 'v.carrier_id', did_count: 'did_count' },
      'name',
      'v.carrier_id',
    );
  });
  implement(app, s, api.did.getVendor, async (ctx) => {
    const row = await vendorQuery(s.db).where('v.carrier_id', '=', ctx.params.id).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  });

  const { uniqueCarrier, updateDidTrunk, checkRule, createVendor, portalUser, createClient } =
    didCarrierWriters(s);

  implement(app, s, api.did.createVendor, async (ctx) => {
    const actor = actorOf(ctx);
    const id = await write((trx) => createVendor(trx, ctx.body, actor));
    return { object_id: id };
  });
  implement(app, s, api.did.updateVendor, async (ctx) => {
    const actor = actorOf(ctx);
    const b = ctx.body;
    await write(async (trx) => {
      const before = await vendorQuery(trx).where('v.carrier_id', '=', ctx.params.id).executeTakeFirst();
      if (!before) throw notFound();
      if (b.name !== undefined) {
        await uniqueCarrier(trx, b.name, ctx.params.id, 'Vendor');
        await trx
          .updateTable('carriers')
          .set({ name: b.name, updated_at: new Date() })
          .where('client_id', '=', ctx.params.id)
          .execute();
      }
      await checkRule(trx, b.billing_rule_id, 'billing_rule_id');
      const v: Record<string, unknown> = {};
      if (b.decimal_places !== undefined) v.decimal_places = b.decimal_places;
      if (b.billing_rule_id !== undefined) v.billing_rule_id = b.billing_rule_id;
      if (b.auth_type !== undefined) v.auth_type = b.auth_type;
      if (Object.keys(v).length)
        await trx.updateTable('did_vendors').set(v).where('carrier_id', '=', ctx.params.id).execute();
      await updateDidTrunk(
        trx,
        before.trunk_id,
        b,
        { tech_prefix: b.tech_prefix, call_limit: b.call_limit, media_type: b.media_type },
        'ingress',
      );
      await s.audit.record(trx, actor, 'did_vendor', ctx.params.id, 'update', before, b);
    });
    return null;
  });

  const clientQuery = (db: Db) =>
    db
      .selectFrom('did_clients as d')
      .innerJoin('carriers as c', 'c.client_id', 'd.carrier_id')
      .leftJoin('trunks as t', 't.trunk_id', 'd.trunk_id')
      .leftJoin('did_billing_rules as r', 'r.id', 'd.billing_rule_id')
      .leftJoin('did_products as p', 'p.id', 'd.did_product_id')
      .select([
        'd.carrier_id',
        'c.name',
        'c.company',
        'c.is_active',
        'c.main_email',
        'c.address',
        'c.mode',
        'd.trunk_id',
        'd.auth_type',
        'd.round_up',
        'd.channels',
        'd.grace_days',
        'd.billing_rule_id',
        'd.did_product_id',
        'd.buy_needs_approval',
        'd.signin_notification',
      ])
      .select(sql<string>`c.balance::text`.as('balance'))
      .select(sql<string>`c.credit_limit::text`.as('credit_limit'))
      .select(sql<string>`c.test_credit::text`.as('test_credit'))
      .select(sql<'bypass' | 'proxy' | 'transcoding'>`coalesce(t.media_type, 'proxy')`.as('media_type'))
      .select(sql<boolean>`coalesce(t.t38, false)`.as('t38'))
      .select(sql<string | null>`r.name`.as('billing_rule_name'))
      .select(sql<string | null>`p.name`.as('did_product_name'))
      .select(hostsOf.as('hosts'))
      .select(
        sql<
          string | null
        >`(select u.name from users u where u.client_id = d.carrier_id order by u.user_id limit 1)`.as(
          'username',
        ),
      )
      .select(
        sql<number>`(select count(*)::int from dids x where x.client_id = d.carrier_id)`.as('did_count'),
      );

  implement(app, s, api.did.listClients, async (ctx) => {
    let qb = clientQuery(s.db);
    if (ctx.query.name) qb = qb.where('c.name', 'ilike', likeContains(ctx.query.name));
    if (ctx.query.did_product_id) qb = qb.where('d.did_product_id', '=', ctx.query.did_product_id);
    return pageOf(
      qb,
      ctx.query,
      { name: 'c.name', carrier_id: 'd.carrier_id', did_count: 'did_count' },
      'name',
      'd.carrier_id',
    );
  });
  implement(app, s, api.did.getClient, async (ctx) => {
    const row = await clientQuery(s.db).where('d.carrier_id', '=', ctx.params.id).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  });

  implement(app, s, api.did.createClient, async (ctx) => {
    const actor = actorOf(ctx);
    const id = await write((trx) => createClient(trx, ctx.body, actor));
    return { object_id: id };
  });
  implement(app, s, api.did.updateClient, async (ctx) => {
    const actor = actorOf(ctx);
    const b = ctx.body;
    await write(async (trx) => {
      const before = await clientQuery(trx).where('d.carrier_id', '=', ctx.params.id).executeTakeFirst();
      if (!before) throw notFound();
      if (b.name !== undefined) await uniqueCarrier(trx, b.name, ctx.params.id, 'Client');
      await checkRule(trx, b.billing_rule_id, 'billing_rule_id');
      const c: Record<string, unknown> = {};
      for (const k of [
        'name',
        'company',
        'main_email',
        'address',
        'mode',
        'credit_limit',
        'test_credit',
      ] as const)
        if (b[k] !== undefined) c[k] = b[k];
      if (b.channels !== undefined) c.call_limit = b.channels > 0 ? b.channels : null;
      if (Object.keys(c).length)
        await trx
          .updateTable('carriers')
          .set({ ...c, updated_at: new Date() })
          .where('client_id', '=', ctx.params.id)
          .execute();
      const d: Record<string, unknown> = {};
      for (const k of [
        'billing_rule_id',
        'did_product_id',
        'auth_type',
        'round_up',
        'channels',
        'grace_days',
        'buy_needs_approval',
        'signin_notification',
      ] as const)
        if (b[k] !== undefined) d[k] = b[k];
      if (Object.keys(d).length)
        await trx.updateTable('did_clients').set(d).where('carrier_id', '=', ctx.params.id).execute();
      await updateDidTrunk(
        trx,
        before.trunk_id,
        b,
        { media_type: b.media_type, t38: b.t38, auth_type: b.auth_type },
        'egress',
      );
      await portalUser(trx, ctx.params.id, b);
      const { password: _p, ...logged } = b;
      await s.audit.record(trx, actor, 'did_client', ctx.params.id, 'update', before, logged);
    });
    return null;
  });

  // ----------------------------------------------------------------------------------------------
  // Repository
  // ----------------------------------------------------------------------------------------------
  const didQuery = (db: Db) =>
    db
      .selectFrom('dids as d')
      .innerJoin('carriers as v', 'v.client_id', 'd.vendor_id')
      .leftJoin('carriers as c', 'c.client_id', 'd.client_id')
      .leftJoin('carriers as rf', 'rf.client_id', 'd.reserved_for')
      .leftJoin('did_billing_rules as vr', 'vr.id', 'd.vendor_billing_rule_id')
      .leftJoin('did_billing_rules as cr', 'cr.id', 'd.client_billing_rule_id')
      .select([
        'd.did_id',
        'd.number',
        'd.state',
        'd.vendor_id',
        'd.client_id',
        'd.reserved_for',
        'd.vendor_billing_rule_id',
        'd.client_billing_rule_id',
        'd.assigned_at',
        'd.released_at',
        'd.created_at',
      ])
      .select('v.name as vendor_name')
      .select(sql<string | null>`c.name`.as('client_name'))
      .select(sql<string | null>`rf.name`.as('reserved_for_name'))
      .select(sql<string | null>`vr.name`.as('vendor_billing_rule_name'))
      .select(sql<string | null>`cr.name`.as('client_billing_rule_name'))
      .select(sql<string | null>`cr.monthly_price::text`.as('monthly_price'))
      .select(sql<string | null>`cr.per_minute::text`.as('per_minute'))
      .select(sql<string | null>`cr.per_channel::text`.as('per_channel'))
      .select(sql<string | null>`cr.setup_fee::text`.as('setup_fee'))
      .select(sql<boolean>`d.suspended_at IS NOT NULL`.as('suspended'));

  implement(app, s, api.did.listDids, async (ctx) => {
    const q = ctx.query;
    let qb = didQuery(s.db);
    if (q.number) qb = qb.where('d.number', 'like', `${q.number}%`);
    if (q.vendor_id) qb = qb.where('d.vendor_id', '=', q.vendor_id);
    if (q.client_id) qb = qb.where('d.client_id', '=', q.client_id);
    if (q.state) qb = qb.where('d.state', '=', q.state);
    const page = await pageOf(
      qb,
      q,
      {
        number: 'd.number',
        state: 'd.state',
        assigned_at: 'd.assigned_at',
        created_at: 'd.created_at',
        did_id: 'd.did_id',
      },
      'number',
      'd.did_id',
    );
    return { items: page.items.map((r) => withIsoTimes(r)) as never, total: page.total };
  });

  implement(app, s, api.did.didHistory, async (ctx) => {
    const did = await didQuery(s.db).where('d.did_id', '=', ctx.params.id).executeTakeFirst();
    if (!did) throw notFound();
    const items = await s.db
      .selectFrom('did_history as h')
      .leftJoin('carriers as c', 'c.client_id', 'h.client_id')
      .select(['h.id', 'h.at', 'h.action', 'h.state', 'h.client_id', 'h.note', 'h.user_name'])
      .select(sql<string | null>`c.name`.as('client_name'))
      .where('h.did_id', '=', ctx.params.id)
      .orderBy('h.at', 'desc')
      .orderBy('h.id', 'desc')
      .execute();
    return { did: withIsoTimes(did) as never, items: items.map((r) => withIsoTimes(r)) as never };
  });

  const repoAction =
    (what: string, run: (trx: Db, actor: Actor, now: Date) => Promise<number>) =>
    async (ctx: { body: { did_ids: number[] } } & Parameters<typeof actorOf>[0]) => {
      const actor = actorOf(ctx);
      const n = await write(async (trx) => {
        const count = await run(trx, actor, new Date());
        await s.audit.record(
          trx,
          actor,
          'did',
          ctx.body.did_ids.slice(0, 50).join(','),
          what,
          null,
          ctx.body,
        );
        return count;
      });
      return n;
    };
  implement(app, s, api.did.assignDids, async (ctx) => ({
    assigned: await repoAction('assign', (trx, a, now) =>
      assign(trx, ctx.body.did_ids, ctx.body.client_id, ctx.body.billing_rule_id, a.user.name, now),
    )(ctx),
  }));
  implement(app, s, api.did.reserveDids, async (ctx) => ({
    reserved: await repoAction('reserve', (trx, a, now) =>
      reserve(trx, ctx.body.did_ids, ctx.body.client_id, a.user.name, now),
    )(ctx),
  }));
  implement(app, s, api.did.releaseDids, async (ctx) => ({
    released: await repoAction('release', (trx, a, now) => release(trx, ctx.body.did_ids, a.user.name, now))(
      ctx,
    ),
  }));
  implement(app, s, api.did.unassignDids, async (ctx) => ({
    unassigned: await repoAction('unassign', (trx, a, now) =>
      unassign(trx, ctx.body.did_ids, a.user.name, now),
    )(ctx),
  }));
  implement(app, s, api.did.deleteDids, async (ctx) => ({
    deleted: await repoAction('delete', (trx, a, now) => remove(trx, ctx.body.did_ids, who(a), now))(ctx),
  }));

  // ----------------------------------------------------------------------------------------------
  // Import
  // ----------------------------------------------------------------------------------------------
  implement(app, s, api.did.importDids, async (ctx) => {
    const actor = actorOf(ctx);
    const b = ctx.body;
    const numbers = numbersOf(b.method, b);
    return write(async (trx) => {
      const r = await importNumbers(trx, {
        vendorId: b.vendor_id,
        ruleId: b.billing_rule_id,
        numbers,
        duplicate: b.duplicate,
        method: b.method,
        fileName: b.method === 'range' ? `${b.start} +${b.count}` : 'list',
        user: who(actor),
        now: new Date(),
      });
      await s.audit.record(trx, actor, 'did_import', r.task_id, 'import', null, {
        ...r,
        vendor_id: b.vendor_id,
      });
      return r;
    });
  });

  defineDidImportJob(s, changed);
  implement(app, s, api.did.importDidFile, async (ctx) => {
    const actor = actorOf(ctx);
    const up = await receiveUpload(s, ctx, api.did.importFileOptions, {
      kindOf: fileKindOf,
      dir: didUploadDir(s),
    });
    let keep = false;
    try {
      if (up.kind !== 'csv' || !/\.csv$/i.test(up.fileName)) throw invalidField('file', 'didCsvOnly');
      // Checked whole before anything is stored: a bad line refuses the file (110 naming it).
      const numbers = numbersOf('file', { numbers: fs.readFileSync(up.filePath, 'utf8') });
      const out = await s.db.transaction().execute(async (trx) => {
        const vendor = await requireVendor(trx, up.options.vendor_id);
        const ruleId = up.options.billing_rule_id ?? vendor.billing_rule_id;
        const task = await trx
          .insertInto('did_upload_tasks')
          .values({
            user_id: actor.user.user_id,
            user_name: actor.user.name,
            file_name: up.fileName,
            status: 'pending',
            total: numbers.length,
            done: 0,
            vendor_id: vendor.carrier_id,
            billing_rule_id: ruleId,
            method: 'file',
            duplicate: up.options.duplicate,
            action: 'upload',
            path: up.filePath,
            created_at: new Date(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const job = await s.jobs.enqueue(
          DID_IMPORT_JOB,
          { taskId: task.id },
          { user: who(actor), db: trx, key: `did-import:${task.id}` },
        );
        await trx.updateTable('did_upload_tasks').set({ job_id: job.id }).where('id', '=', task.id).execute();
        await s.audit.record(trx, actor, 'did_import', task.id, 'import', null, {
          file: up.fileName,
          vendor_id: vendor.carrier_id,
          total: numbers.length,
        });
        return { task_id: task.id, job_id: Number(job.id), total: numbers.length };
      });
      keep = true;
      s.jobs.runner.wake();
      return out;
    } finally {
      if (!keep) fs.rmSync(up.filePath, { force: true });
    }
  });

  implement(app, s, api.did.listImports, async (ctx) => {
    let qb = s.db
      .selectFrom('did_upload_tasks as t')
      .leftJoin('carriers as v', 'v.client_id', 't.vendor_id')
      .select([
        't.id',
        't.action',
        't.method',
        't.file_name',
        't.vendor_id',
        't.duplicate',
        't.status',
        't.total',
        't.done',
        't.job_id',
        't.inserted',
        't.updated',
        't.ignored',
        't.error',
        't.user_name',
        't.created_at',
        't.finished_at',
      ])
      .select(sql<string | null>`v.name`.as('vendor_name'));
    if (ctx.query.action) qb = qb.where('t.action', '=', ctx.query.action);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { created_at: 't.created_at', id: 't.id' },
      'created_at',
      't.id',
    );
    return { items: page.items.map((r) => withIsoTimes(r)) as never, total: page.total };
  });

  // ----------------------------------------------------------------------------------------------
  // Wizard: vendor, numbers, client and trunk in one transaction
  // ----------------------------------------------------------------------------------------------
  implement(app, s, api.did.wizard, async (ctx) => {
    const actor = actorOf(ctx);
    const b = ctx.body;
    if (b.vendor_id === null && b.vendor === null) throw invalidField('vendor_id', 'required', ['vendor']);
    if (b.client_id === null && b.client === null) throw invalidField('client_id', 'required', ['client']);
    const method = b.count > 0 || b.start !== '' ? 'range' : 'list';
    const numbers = numbersOf(method, b);
    return write(async (trx) => {
      await checkRule(trx, b.billing_rule_id, 'billing_rule_id');
      const vendorId =
        b.vendor_id ??
        (await createVendor(trx, { ...(b.vendor as VendorBody), billing_rule_id: b.billing_rule_id }, actor));
      const clientId = b.client_id ?? (await createClient(trx, b.client as ClientBody, actor));
      const now = new Date();
      await importNumbers(trx, {
        vendorId,
        ruleId: b.billing_rule_id,
        numbers,
        duplicate: 'ignore',
        method,
        fileName: 'wizard',
        user: who(actor),
        now,
      });
      const ids = await trx
        .selectFrom('dids')
        .select(['did_id', 'state'])
        .where('number', 'in', numbers)
        .execute();
      const free = ids.filter((d) => d.state !== 'assigned').map((d) => d.did_id);
      await requireClient(trx, clientId);
      const assigned = free.length
        ? await assign(trx, free, clientId, null, actor.user.name, now, 'wizard')
        : 0;
      await s.audit.record(trx, actor, 'did_wizard', clientId, 'create', null, {
        vendorId,
        clientId,
        assigned,
      });
      return { vendor_id: vendorId, client_id: clientId, assigned };
    });
  });

  // ----------------------------------------------------------------------------------------------
  // Routing view and charges
  // ----------------------------------------------------------------------------------------------
  implement(app, s, api.did.listRouting, async (ctx) => {
    let qb = s.db
      .selectFrom('dids as d')
      .innerJoin('carriers as v', 'v.client_id', 'd.vendor_id')
      .innerJoin('carriers as c', 'c.client_id', 'd.client_id')
      .leftJoin('did_vendors as dv', 'dv.carrier_id', 'd.vendor_id')
      .leftJoin('did_clients as dc', 'dc.carrier_id', 'd.client_id')
      .leftJoin('trunks as t', 't.trunk_id', 'dc.trunk_id')
      .select(['d.did_id', 'd.number', 'v.name as vendor_name', 'c.name as client_name'])
      .select(sql<number>`d.client_id`.as('client_id'))
      .select(sql<number | null>`t.trunk_id`.as('trunk_id'))
      .select(sql<string | null>`t.name`.as('trunk_name'))
      .select(hostsOf.as('client_hosts'))
      .select(
        sql<
          string[]
        >`coalesce((select array_agg(h.host order by h.ordering, h.id) from trunk_hosts h where h.trunk_id = dv.trunk_id), '{}')`.as(
          'vendor_hosts',
        ),
      )
      .select(sql<boolean>`d.suspended_at IS NOT NULL`.as('suspended'))
      .where('d.state', '=', 'assigned');
    if (ctx.query.number) qb = qb.where('d.number', 'like', `${ctx.query.number}%`);
    return pageOf(qb, ctx.query, { number: 'd.number', client_name: 'c.name' }, 'number', 'd.did_id');
  });

  implement(app, s, api.did.listCharges, async (ctx) => {
    const actor = actorOf(ctx);
    let qb = s.db
      .selectFrom('did_charges as x')
      .innerJoin('carriers as c', 'c.client_id', 'x.carrier_id')
      .select(['x.id', 'x.carrier_id', 'x.side', 'x.kind', 'x.number', 'x.period', 'x.created_at'])
      .select('c.name as carrier_name')
      .select(sql<string>`x.amount::text`.as('amount'));
    // A client sees its own charges only, whatever carrier it asks for.
    if (actor.type !== 'admin') qb = qb.where('x.carrier_id', '=', actor.clientId ?? -1);
    else if (ctx.query.carrier_id) qb = qb.where('x.carrier_id', '=', ctx.query.carrier_id);
    if (ctx.query.period) qb = qb.where('x.period', '=', ctx.query.period);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { created_at: 'x.created_at', id: 'x.id' },
      'created_at',
      'x.id',
    );
    return { items: page.items.map((r) => withIsoTimes(r)) as never, total: page.total };
  });

  const releaseForJob = (trx: Db, ids: number[], by: string, note: string) =>
    release(trx, ids, by, new Date(), note);
  s.jobs.define('did.charges', async (_payload, jobCtx) => {
    jobCtx.progress({ done: 0, message: 'charging DIDs' });
    const r = await runDidCharges(s, Date.now(), releaseForJob, jobCtx.signal);
    // Charges move balances (the routing engine reads them from the database by itself); only a
    // DID suspended, resumed or released changes what routing decides, so only then is it rebuilt.
    if (r.suspended + r.resumed + r.released > 0) changed();
    jobCtx.progress({
      done: 1,
      total: 1,
      message: `${r.charged} charges, ${r.suspended} suspended, ${r.released} released`,
    });
    return r;
  });
  s.jobs.every('did.charges', { hourly: 5 });

  implement(app, s, api.did.runCharges, async (ctx) => {
    const actor = actorOf(ctx);
    const { id } = await s.jobs.enqueue(
      'did.charges',
      {},
      { user: { user_id: actor.user.user_id, name: actor.user.name } },
    );
    return { job_id: id };
  });

  // ----------------------------------------------------------------------------------------------
  // DID CDRs: the CDR search over DID traffic only (tenancy and fields as the CDR search's)
  // ----------------------------------------------------------------------------------------------
  implement(app, s, api.did.cdrList, async (ctx) => {
    const viewer = await requestViewer(s.db, actorOf(ctx), ctx.lang);
    const fields = await chosenFields(s.db, viewer, ctx.query.fields);
    const { lastCursor: _, ...page } = await searchPage(
      s.db,
      viewer,
      { ...ctx.query, traffic: 'did' },
      fields,
    );
    return page;
  });
  implement(app, s, api.did.cdrCall, async (ctx) =>
    callAttempts(s.db, await requestViewer(s.db, actorOf(ctx), ctx.lang), ctx.params.call_id, {
      traffic: 'did',
    }),
  );
  implement(app, s, api.did.cdrFieldsOf, async (ctx) =>
    fieldCatalogue(s.db, await requestViewer(s.db, actorOf(ctx), ctx.lang)),
  );

  // ----------------------------------------------------------------------------------------------
  // Client portal
  // ----------------------------------------------------------------------------------------------
  async function portalClient(actor: Actor) {
    const id = actor.clientId;
    const c =
      id === null
        ? undefined
        : await s.db
            .selectFrom('did_clients as d')
            .innerJoin('carriers as c', 'c.client_id', 'd.carrier_id')
            .leftJoin('did_products as p', 'p.id', 'd.did_product_id')
            .select(['d.carrier_id', 'd.buy_needs_approval', 'c.is_panel_didrequest', 'c.is_panel_mydid'])
            .select(sql<number | null>`coalesce(d.billing_rule_id, p.billing_rule_id)`.as('billing_rule_id'))
            .where('d.carrier_id', '=', id)
            .executeTakeFirst();
    if (!c) throw new AppError(ErrorCode.forbidden, 'didPortalOnly', [], 403);
    return c;
  }
  const priceOf = (ruleId: number | null) =>
    ruleId === null
      ? null
      : s.db
          .selectFrom('did_billing_rules')
          .select(sql<string>`monthly_price::text`.as('monthly_price'))
          .select(sql<string>`per_minute::text`.as('per_minute'))
          .select(sql<string>`setup_fee::text`.as('setup_fee'))
          .where('id', '=', ruleId)
          .executeTakeFirst();

  implement(app, s, api.did.portalAvailable, async (ctx) => {
    const c = await portalClient(actorOf(ctx));
    if (!c.is_panel_didrequest) throw new AppError(ErrorCode.forbidden, 'noPermission', [], 403);
    const price = (await priceOf(c.billing_rule_id)) ?? {
      monthly_price: '0',
      per_minute: '0',
      setup_fee: '0',
    };
    let qb = s.db
      .selectFrom('dids')
      .select(['did_id', 'number', 'state', 'assigned_at'])
      .select(sql<boolean>`false`.as('suspended'))
      .where('state', 'in', ['unassigned', 'released']);
    if (ctx.query.number) qb = qb.where('number', 'like', `${ctx.query.number}%`);
    const page = await pageOf(qb, ctx.query, { number: 'number' }, 'number', 'did_id');
    return {
      items: page.items.map((r) => ({ ...withIsoTimes(r), ...price })) as never,
      total: page.total,
    };
  });

  implement(app, s, api.did.portalMine, async (ctx) => {
    const c = await portalClient(actorOf(ctx));
    if (!c.is_panel_mydid) throw new AppError(ErrorCode.forbidden, 'noPermission', [], 403);
    const qb = s.db
      .selectFrom('dids as d')
      .leftJoin('did_billing_rules as r', 'r.id', 'd.client_billing_rule_id')
      .select(['d.did_id', 'd.number', 'd.state', 'd.assigned_at'])
      .select(sql<string>`coalesce(r.monthly_price, 0)::text`.as('monthly_price'))
      .select(sql<string>`coalesce(r.per_minute, 0)::text`.as('per_minute'))
      .select(sql<string>`coalesce(r.setup_fee, 0)::text`.as('setup_fee'))
      .select(sql<boolean>`d.suspended_at IS NOT NULL`.as('suspended'))
      .where((e) =>
        e.or([
          e('d.client_id', '=', c.carrier_id),
          e.and([e('d.state', '=', 'reserved'), e('d.reserved_for', '=', c.carrier_id)]),
        ]),
      );
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { assigned_at: 'd.assigned_at', number: 'd.number' },
      'assigned_at',
      'd.did_id',
    );
    return { items: page.items.map((r) => withIsoTimes(r)) as never, total: page.total };
  });

  implement(app, s, api.did.portalBuy, async (ctx) => {
    const actor = actorOf(ctx);
    const c = await portalClient(actor);
    if (!c.is_panel_didrequest) throw new AppError(ErrorCode.forbidden, 'noPermission', [], 403);
    return write(async (trx) => {
      const now = new Date();
      // Only numbers on sale: anything else (another client's, reserved) is "does not exist" to a
      // client. The rows are locked (id order) before their state is read, so of two clients buying
      // the same number at once the second finds it taken: assign() alone would take a number
      // another client had just reserved (reserved may be assigned by the operator).
      const rows = await lockDids(trx, ctx.body.did_ids);
      if (rows.some((d) => d.state !== 'unassigned' && d.state !== 'released'))
        throw new AppError(ErrorCode.rule, 'didNotFound', [], 409);
      const ids = rows.map((d) => d.did_id);
      const out = c.buy_needs_approval
        ? {
            assigned: 0,
            requested: await reserve(trx, ids, c.carrier_id, actor.user.name, now, 'requested in the portal'),
          }
        : {
            assigned: await assign(
              trx,
              ids,
              c.carrier_id,
              null,
              actor.user.name,
              now,
              'bought in the portal',
            ),
            requested: 0,
          };
      await s.audit.record(trx, actor, 'did', ids.join(','), 'buy', null, out);
      return out;
    });
  });

  implement(app, s, api.did.portalRelease, async (ctx) => {
    const actor = actorOf(ctx);
    const c = await portalClient(actor);
    if (!c.is_panel_mydid) throw new AppError(ErrorCode.forbidden, 'noPermission', [], 403);
    const released = await write(async (trx) => {
      const n = await release(
        trx,
        ctx.body.did_ids,
        actor.user.name,
        new Date(),
        'released in the portal',
        c.carrier_id,
      );
      await s.audit.record(trx, actor, 'did', ctx.body.did_ids.join(','), 'release', null, { released: n });
      return n;
    });
    return { released };
  });
}
