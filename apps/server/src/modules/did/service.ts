import {
  didChargeRef,
  didRange,
  localDay,
  parseDidLines,
  parseMoney,
  sameLocalDay,
  zoneOffsetMinutes,
  type Micros,
} from '@tandem/domain';
import { api } from '@tandem/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { DidState } from '../../db/schema-did';
import { invalidField, ruleBroken } from '../../http/errors';

const { DID_LIST_MAX, DID_RANGE_MAX } = api.did;
import { applyCharges, assignmentCharges, importCharges, releaseCharges, type RuleMoney } from './charges';

/** The billing rules' money by id (one query for any number of rules). */
export async function rulesMoney(trx: Db, ids: readonly (number | null)[]): Promise<Map<number, RuleMoney>> {
  const wanted = [...new Set(ids.filter((x): x is number => x !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await trx
    .selectFrom('did_billing_rules')
    .select('id')
    .select(sql<string>`monthly_price::text`.as('monthly_price'))
    .select(sql<string>`setup_fee::text`.as('setup_fee'))
    .select(sql<string>`per_channel::text`.as('per_channel'))
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map(({ id, ...money }) => [id, money]));
}

/**
 * The DID repository's rules (docs/did.md): imports, state changes with their history and charges.
 * Every function runs in the caller's transaction; the routes commit and then signal the routing
 * engine (services.configChanged).
 *
 * States and the moves allowed:
 *   unassigned -> reserved (reserve), assigned (assign)
 *   reserved   -> assigned (assign, the same client or another), unassigned (unassign)
 *   assigned   -> released (release)
 *   released   -> assigned, reserved, unassigned
 * Delete removes unassigned or released numbers only.
 */

export async function ruleMoney(trx: Db, id: number | null): Promise<RuleMoney | null> {
  return id === null ? null : ((await rulesMoney(trx, [id])).get(id) ?? null);
}

export async function addHistory(
  trx: Db,
  rows: { did_id: number; action: string; state: DidState; client_id: number | null; note?: string }[],
  user: string,
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO did_history (did_id, action, state, client_id, note, user_name, at)
    SELECT d, a, s, c, n, ${user}, ${at} FROM unnest(${rows.map((r) => r.did_id)}::int4[], ${rows.map((r) => r.action)}::text[],
      ${rows.map((r) => r.state)}::text[], ${rows.map((r) => r.client_id)}::int4[], ${rows.map((r) => r.note ?? '')}::text[])
      AS v(d, a, s, c, n)`.execute(trx);
}

/** The numbers of an import request, checked whole: any bad line refuses all (110 naming the field). */
export function numbersOf(
  method: 'list' | 'range' | 'file',
  input: { numbers?: string; start?: string; count?: number; billing_rule_id?: number | null },
): string[] {
  if (method === 'range') {
    if (input.billing_rule_id == null) throw invalidField('billing_rule_id', 'didRangeRuleRequired');
    const start = (input.start ?? '').trim();
    if (start === '') throw invalidField('start', 'didRequired');
    if (!/^\d{7,15}$/.test(start)) throw invalidField('start', 'didInvalid');
    const count = input.count ?? 0;
    if (count < 1) throw invalidField('count', 'required', ['count']);
    if (count > DID_RANGE_MAX) throw invalidField('count', 'didTooMany', [DID_RANGE_MAX]);
    const list = didRange(start, count);
    if (list === null) throw invalidField('count', 'didRangeTooLong');
    return list;
  }
  const field = method === 'file' ? 'file' : 'numbers';
  const parsed = parseDidLines(input.numbers ?? '');
  const multi = parsed.multiField[0];
  if (multi) throw invalidField(field, 'didOneField', [multi.line, multi.text]);
  const bad = parsed.invalid[0];
  if (bad) throw invalidField(field, 'didInvalidLine', [bad.line, bad.text]);
  if (parsed.numbers.length === 0) throw invalidField(field, 'didRequired');
  if (method === 'list' && parsed.numbers.length > DID_LIST_MAX)
    throw invalidField(field, 'didTooMany', [DID_LIST_MAX]);
  return [...new Set(parsed.numbers)];
}

export async function requireVendor(trx: Db, id: number, field = 'vendor_id') {
  const v = await trx
    .selectFrom('did_vendors as v')
    .innerJoin('carriers as c', 'c.client_id', 'v.carrier_id')
    .select(['v.carrier_id', 'v.billing_rule_id', 'c.time_zone', 'c.name'])
    .where('v.carrier_id', '=', id)
    .executeTakeFirst();
  if (!v) throw invalidField(field, 'didNotVendor', [`#${id}`]);
  return v;
}

export async function requireClient(trx: Db, id: number, field = 'client_id') {
  const c = await trx
    .selectFrom('did_clients as d')
    .innerJoin('carriers as c', 'c.client_id', 'd.carrier_id')
    .leftJoin('did_products as p', 'p.id', 'd.did_product_id')
    .select(['d.carrier_id', 'c.time_zone', 'c.name', 'd.buy_needs_approval'])
    .select(sql<number | null>`coalesce(d.billing_rule_id, p.billing_rule_id)`.as('billing_rule_id'))
    .where('d.carrier_id', '=', id)
    .executeTakeFirst();
  if (!c) throw invalidField(field, 'didNotClient', [`#${id}`]);
  return c;
}

export interface ImportRequest {
  vendorId: number;
  ruleId: number | null;
  numbers: readonly string[];
  duplicate: 'overwrite' | 'ignore';
  method: 'list' | 'file' | 'range';
  fileName: string;
  user: { user_id: number | null; name: string };
  now: Date;
}

/**
 * Adds numbers to the repository in the caller's transaction (all or none): new numbers are
 * unassigned with the vendor's rule; existing ones are overwritten (vendor and vendor rule) or
 * ignored. The DID import log row, the history rows and the vendor's charges are written with them.
 */
export async function importNumbers(trx: Db, r: ImportRequest) {
  const vendor = await requireVendor(trx, r.vendorId);
  const ruleId = r.ruleId ?? vendor.billing_rule_id;
  const task = await trx
    .insertInto('did_upload_tasks')
    .values({
      user_id: r.user.user_id,
      user_name: r.user.name,
      file_name: r.fileName,
      status: 'finished',
      total: r.numbers.length,
      done: r.numbers.length,
      vendor_id: r.vendorId,
      billing_rule_id: ruleId,
      method: r.method,
      duplicate: r.duplicate,
      action: 'upload',
      created_at: r.now,
      finished_at: r.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const counts = await writeNumbers(trx, {
    taskId: task.id,
    vendorId: r.vendorId,
    ruleId,
    numbers: r.numbers,
    duplicate: r.duplicate,
    userName: r.user.name,
    now: r.now,
  });
  await trx.updateTable('did_upload_tasks').set(counts).where('id', '=', task.id).execute();
  await chargeImport(trx, task.id, r.vendorId, ruleId, counts.inserted, r.now, vendor.time_zone, r.user.name);
  return { task_id: task.id, total: r.numbers.length, ...counts };
}

/** The vendor's charge for the numbers an import added: setup fees and the rest of the month, once per import. */
export async function chargeImport(
  trx: Db,
  taskId: number,
  vendorId: number,
  ruleId: number | null,
  inserted: number,
  now: Date,
  zone: string,
  by: string,
): Promise<void> {
  await applyCharges(
    trx,
    importCharges(vendorId, taskId, await ruleMoney(trx, ruleId), inserted, now.getTime(), zone),
    by,
  );
}

/**
 * Writes numbers of an import (all of a list, or one step of a file) in the caller's transaction:
 * new ones inserted unassigned, existing ones (stored before the import began) overwritten or
 * ignored, each with its history row. Returns how many of each.
 */
export async function writeNumbers(
  trx: Db,
  t: {
    taskId: number;
    vendorId: number;
    ruleId: number | null;
    numbers: readonly string[];
    duplicate: 'overwrite' | 'ignore';
    userName: string;
    /** When the import began (its rows' created_at: a later step never "overwrites" an earlier one). */
    now: Date;
  },
): Promise<{ inserted: number; updated: number; ignored: number }> {
  // The numbers and their 'imported' history rows in one statement: the new ids never leave the
  // database (10,000s of them per step).
  const added = await sql<{ n: number }>`
    WITH ins AS (
      INSERT INTO dids (number, vendor_id, vendor_billing_rule_id, state, created_at, updated_at)
      SELECT n, ${t.vendorId}, ${t.ruleId}, 'unassigned', ${t.now}, ${t.now} FROM unnest(${[...t.numbers]}::text[]) AS n
      ON CONFLICT (number) DO NOTHING RETURNING did_id
    ), history AS (
      INSERT INTO did_history (did_id, action, state, client_id, note, user_name, at)
      SELECT did_id, 'imported', 'unassigned', NULL, ${`import #${t.taskId}`}, ${t.userName}, ${t.now} FROM ins
    )
    SELECT count(*)::int AS n FROM ins`.execute(trx);
  const inserted = added.rows[0]!.n;
  let updated = 0;
  if (t.duplicate === 'overwrite' && inserted < t.numbers.length) {
    const changed = await sql<{ did_id: number; state: DidState; client_id: number | null }>`
      UPDATE dids SET vendor_id = ${t.vendorId}, vendor_billing_rule_id = ${t.ruleId}, updated_at = ${t.now}
      WHERE number = ANY(${[...t.numbers]}::text[]) AND created_at < ${t.now}
      RETURNING did_id, state, client_id`.execute(trx);
    updated = changed.rows.length;
    await addHistory(
      trx,
      changed.rows.map((d) => ({
        did_id: d.did_id,
        action: 'overwritten',
        state: d.state,
        client_id: d.client_id,
        note: `import #${t.taskId}`,
      })),
      t.userName,
      t.now,
    );
  }
  return {
    inserted,
    updated,
    ignored: t.numbers.length - inserted - updated,
  };
}

type Row = {
  did_id: number;
  number: string;
  state: DidState;
  client_id: number | null;
  reserved_for: number | null;
  client_billing_rule_id: number | null;
  assigned_at: Date | null;
  released_at: Date | null;
};

/** The DIDs, locked, in id order; every id must exist (else 'User or DID does not exist'). */
export async function lockDids(trx: Db, ids: readonly number[], clientId?: number): Promise<Row[]> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  let q = trx
    .selectFrom('dids')
    .select([
      'did_id',
      'number',
      'state',
      'client_id',
      'reserved_for',
      'client_billing_rule_id',
      'assigned_at',
      'released_at',
    ])
    .where('did_id', 'in', unique);
  if (clientId !== undefined) q = q.where('client_id', '=', clientId);
  const rows = await q.orderBy('did_id').forUpdate().execute();
  if (rows.length !== unique.length) throw ruleBroken('didNotFound');
  return rows;
}

const refuse = (d: Row, to: string) => ruleBroken('didWrongState', [d.number, d.state, to]);

/** Assign: from unassigned, reserved or released; charges the setup fee and the month's rest. */
export async function assign(
  trx: Db,
  ids: readonly number[],
  clientId: number,
  ruleId: number | null,
  user: string,
  now: Date,
  note = '',
): Promise<number> {
  const client = await requireClient(trx, clientId);
  const rule = ruleId ?? client.billing_rule_id;
  const rows = await lockDids(trx, ids);
  for (const d of rows) if (d.state === 'assigned') throw refuse(d, 'assigned');
  // The same client taking back, on the day it released it, a number it held paid that day already.
  const offset = zoneOffsetMinutes(client.time_zone);
  const sameDay = rows.filter(
    (d) => d.released_at !== null && sameLocalDay(new Date(d.released_at).getTime(), now.getTime(), offset),
  );
  const paidToday = new Set<number>();
  if (sameDay.length) {
    const last = await sql<{ did_id: number; client_id: number | null }>`
      SELECT DISTINCT ON (did_id) did_id, client_id FROM did_history
      WHERE did_id = ANY(${sameDay.map((d) => d.did_id)}::int4[]) AND action = 'released'
      ORDER BY did_id, at DESC, id DESC`.execute(trx);
    for (const h of last.rows) if (h.client_id === clientId) paidToday.add(h.did_id);
  }
  await trx
    .updateTable('dids')
    .set({
      state: 'assigned',
      client_id: clientId,
      client_billing_rule_id: rule,
      reserved_for: null,
      assigned_at: now,
      released_at: null,
      suspended_at: null,
      updated_at: now,
    })
    .where(
      'did_id',
      'in',
      rows.map((d) => d.did_id),
    )
    .execute();
  await addHistory(
    trx,
    rows.map((d) => ({ did_id: d.did_id, action: 'assigned', state: 'assigned', client_id: clientId, note })),
    user,
    now,
  );
  const money = await ruleMoney(trx, rule);
  await applyCharges(
    trx,
    rows.flatMap((d) =>
      assignmentCharges(
        { did_id: d.did_id, number: d.number, client_id: clientId },
        money,
        now.getTime(),
        client.time_zone,
        paidToday.has(d.did_id),
      ),
    ),
    user,
  );
  return rows.length;
}

/** Release: assigned only; the client gets the month's remaining days back. */
export async function release(
  trx: Db,
  ids: readonly number[],
  user: string,
  now: Date,
  note = '',
  clientId?: number,
): Promise<number> {
  const rows = await lockDids(trx, ids, clientId);
  for (const d of rows) if (d.state !== 'assigned') throw refuse(d, 'released');
  await trx
    .updateTable('dids')
    .set({ state: 'released', client_id: null, released_at: now, suspended_at: null, updated_at: now })
    .where(
      'did_id',
      'in',
      rows.map((d) => d.did_id),
    )
    .execute();
  await addHistory(
    trx,
    rows.map((d) => ({
      did_id: d.did_id,
      action: 'released',
      state: 'released',
      client_id: d.client_id,
      note,
    })),
    user,
    now,
  );
  // The charges of every DID together: zones, rules and what the release month was charged, one
  // query each, then one applyCharges (release() runs for a portal click and for the charge job).
  const owners = [...new Set(rows.map((d) => d.client_id as number))];
  const zones = new Map(
    (
      await trx
        .selectFrom('carriers')
        .select(['client_id', 'time_zone'])
        .where('client_id', 'in', owners)
        .execute()
    ).map((c) => [c.client_id, c.time_zone]),
  );
  const money = await rulesMoney(
    trx,
    rows.map((d) => d.client_billing_rule_id),
  );
  const held = rows.flatMap((d) =>
    d.assigned_at === null
      ? []
      : [
          {
            did_id: d.did_id,
            number: d.number,
            client_id: d.client_id as number,
            assigned_at: new Date(d.assigned_at),
          },
        ],
  );
  const monthRefs = held.map((d) => {
    const period = localPeriod(now.getTime(), zones.get(d.client_id));
    return didChargeRef('monthly', d.did_id, d.assigned_at.getTime(), period);
  });
  const paid = new Map<string, Micros>();
  if (monthRefs.length) {
    const found = await sql<{ carrier_id: number; ref: string; amount: string }>`
      SELECT carrier_id, ref, amount::text AS amount FROM did_charges
      WHERE side = 'customer' AND (carrier_id, ref) IN (
        SELECT * FROM unnest(${held.map((d) => d.client_id)}::int4[], ${monthRefs}::text[]))`.execute(trx);
    for (const f of found.rows) paid.set(`${f.carrier_id}\u0000${f.ref}`, parseMoney(f.amount));
  }
  await applyCharges(
    trx,
    held.flatMap((d, i) =>
      releaseCharges(
        d,
        money.get(rows.find((r) => r.did_id === d.did_id)?.client_billing_rule_id ?? -1) ?? null,
        now.getTime(),
        zones.get(d.client_id) ?? '+0000',
        paid.get(`${d.client_id}\u0000${monthRefs[i]}`),
      ),
    ),
    user,
  );
  return rows.length;
}

/** The local month ("YYYY-MM") of an instant in a carrier's zone. */
const localPeriod = (atMs: number, zone: string | undefined) =>
  localDay(atMs, zoneOffsetMinutes(zone)).period;

export async function reserve(
  trx: Db,
  ids: readonly number[],
  clientId: number,
  user: string,
  now: Date,
  note = '',
): Promise<number> {
  await requireClient(trx, clientId);
  const rows = await lockDids(trx, ids);
  for (const d of rows) if (d.state !== 'unassigned' && d.state !== 'released') throw refuse(d, 'reserved');
  await trx
    .updateTable('dids')
    .set({ state: 'reserved', reserved_for: clientId, updated_at: now })
    .where(
      'did_id',
      'in',
      rows.map((d) => d.did_id),
    )
    .execute();
  await addHistory(
    trx,
    rows.map((d) => ({ did_id: d.did_id, action: 'reserved', state: 'reserved', client_id: clientId, note })),
    user,
    now,
  );
  return rows.length;
}

export async function unassign(trx: Db, ids: readonly number[], user: string, now: Date): Promise<number> {
  const rows = await lockDids(trx, ids);
  for (const d of rows) if (d.state !== 'reserved' && d.state !== 'released') throw refuse(d, 'unassigned');
  await trx
    .updateTable('dids')
    .set({ state: 'unassigned', reserved_for: null, updated_at: now })
    .where(
      'did_id',
      'in',
      rows.map((d) => d.did_id),
    )
    .execute();
  await addHistory(
    trx,
    rows.map((d) => ({ did_id: d.did_id, action: 'unassigned', state: 'unassigned', client_id: null })),
    user,
    now,
  );
  return rows.length;
}

export async function remove(
  trx: Db,
  ids: readonly number[],
  user: { user_id: number | null; name: string },
  now: Date,
): Promise<number> {
  const rows = await lockDids(trx, ids);
  for (const d of rows) if (d.state !== 'unassigned' && d.state !== 'released') throw refuse(d, 'deleted');
  await trx
    .deleteFrom('dids')
    .where(
      'did_id',
      'in',
      rows.map((d) => d.did_id),
    )
    .execute();
  await trx
    .insertInto('did_upload_tasks')
    .values({
      user_id: user.user_id,
      user_name: user.name,
      file_name: rows
        .slice(0, 20)
        .map((d) => d.number)
        .join(' ')
        .slice(0, 200),
      status: 'finished',
      total: rows.length,
      done: rows.length,
      action: 'delete',
      method: 'list',
      created_at: now,
      finished_at: now,
    })
    .execute();
  return rows.length;
}
