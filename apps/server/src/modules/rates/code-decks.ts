import fs from 'node:fs';
import { api, ErrorCode, type MessageKey } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains, pageOf } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implementCrud } from '../../http/crud';
import { AppError, duplicate, notFound, ruleBroken, type FieldError } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { readKeyedRows } from './import/keyed-rows';
import { receiveUpload } from './upload';

const count = sql<number>`count(*)::int`.as('n');

/** Rates in rate tables on this deck with this code (the code's usage count). */
const codeUsage = (deckRef: string, codeRef: string) =>
  sql<number>`(select count(*)::int from rates r join rate_tables t on t.rate_table_id = r.rate_table_id where t.code_deck_id = ${sql.ref(deckRef)} and r.code = ${sql.ref(codeRef)})`;

/** Refuses an import whose rows break the rules, naming up to ten rows ('line N'). */
export function rowErrors(
  errors: { line: number; key: MessageKey; params: (string | number)[] }[],
): AppError {
  const fields: Record<string, FieldError> = {};
  for (const e of errors.slice(0, 10)) fields[`line ${e.line}`] = { key: e.key, params: e.params };
  return new AppError(ErrorCode.validation, 'validationFailed', [], 400, fields);
}

async function deckExists(db: Db, id: number): Promise<void> {
  if (
    !(await db
      .selectFrom('code_decks')
      .select('code_deck_id')
      .where('code_deck_id', '=', id)
      .executeTakeFirst())
  )
    throw notFound();
}

/** Configuration > Code Deck: decks (one default), their codes, and the code deck import. */
export function registerCodeDecks(app: FastifyInstance, s: Services): void {
  const e = api.rates.codeDeck;
  implementCrud(app, s, e, {
    table: 'code_decks',
    id: 'code_deck_id',
    entity: 'code_deck',
    label: 'Code Deck',
    select: (db) =>
      db
        .selectFrom('code_decks as d')
        .select(['d.code_deck_id', 'd.name', 'd.is_default', 'd.updated_at', 'd.updated_by'])
        .select(
          sql<number>`(select count(*)::int from codes c where c.code_deck_id = d.code_deck_id)`.as(
            'code_count',
          ),
        )
        .select(
          sql<number>`(select count(*)::int from rate_tables t where t.code_deck_id = d.code_deck_id)`.as(
            'usage_count',
          ),
        ),
    selectId: 'd.code_deck_id',
    sortable: {
      name: 'd.name',
      code_deck_id: 'd.code_deck_id',
      is_default: 'd.is_default',
      updated_at: 'd.updated_at',
      code_count: 'code_count',
      usage_count: 'usage_count',
    },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('d.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    validate: async (trx, body, before, ctx) => {
      body.updated_by = actorOf(ctx).user.name;
      // One default deck: choosing a new default clears the old one in the same transaction.
      if (body.is_default === true) {
        let q = trx.updateTable('code_decks').set({ is_default: false }).where('is_default', '=', true);
        if (before) q = q.where('code_deck_id', '!=', Number(before.code_deck_id));
        await q.execute();
      }
    },
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
    usage: async (db, id) => {
      const r = await db
        .selectFrom('rate_tables')
        .select(count)
        .where('code_deck_id', '=', id)
        .executeTakeFirstOrThrow();
      const g = await db
        .selectFrom('rate_generation_templates')
        .select(count)
        .where('code_deck_id', '=', id)
        .executeTakeFirstOrThrow();
      return [
        { what: 'rate table(s)', count: Number(r.n) },
        { what: 'rate generation template(s)', count: Number(g.n) },
      ];
    },
    afterWrite: () => s.configChanged.notify(),
  });

  implement(app, s, api.rates.listCodes, async (ctx) => {
    await deckExists(s.db, ctx.params.id);
    const q = ctx.query;
    let qb = s.db
      .selectFrom('codes as c')
      .select(['c.code', 'c.code_name', 'c.country'])
      .select(codeUsage('c.code_deck_id', 'c.code').as('usage_count'))
      .where('c.code_deck_id', '=', ctx.params.id);
    if (q.code) qb = qb.where('c.code', 'like', `${q.code.replace(/[\\%_]/g, '')}%`);
    if (q.code_name) qb = qb.where('c.code_name', 'ilike', likeContains(q.code_name));
    if (q.country) qb = qb.where('c.country', 'ilike', likeContains(q.country));
    return pageOf(
      qb,
      q,
      { code: 'c.code', code_name: 'c.code_name', country: 'c.country' },
      'code',
      'c.code',
    );
  });

  implement(app, s, api.rates.createCode, async (ctx) => {
    const b = ctx.body;
    await s.db.transaction().execute(async (trx) => {
      await deckExists(trx, ctx.params.id);
      const clash = await trx
        .selectFrom('codes')
        .select('code')
        .where('code_deck_id', '=', ctx.params.id)
        .where('code', '=', b.code)
        .executeTakeFirst();
      if (clash) throw duplicate('code', 'Code', b.code);
      await trx
        .insertInto('codes')
        .values({ code_deck_id: ctx.params.id, ...b })
        .execute();
      await touchDeck(trx, ctx.params.id, actorOf(ctx).user.name);
      await s.audit.record(trx, actorOf(ctx), 'code', `${ctx.params.id}:${b.code}`, 'create', null, b);
    });
    s.configChanged.notify();
    return null;
  });

  implement(app, s, api.rates.updateCode, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('codes')
        .selectAll()
        .where('code_deck_id', '=', ctx.params.id)
        .where('code', '=', ctx.params.code)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw notFound();
      if (Object.keys(ctx.body).length)
        await trx
          .updateTable('codes')
          .set(ctx.body)
          .where('code_deck_id', '=', ctx.params.id)
          .where('code', '=', ctx.params.code)
          .execute();
      await touchDeck(trx, ctx.params.id, actorOf(ctx).user.name);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'code',
        `${ctx.params.id}:${ctx.params.code}`,
        'update',
        before,
        ctx.body,
      );
    });
    s.configChanged.notify();
    return null;
  });

  implement(app, s, api.rates.deleteCode, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('codes as c')
        .selectAll('c')
        .select(codeUsage('c.code_deck_id', 'c.code').as('usage_count'))
        .where('c.code_deck_id', '=', ctx.params.id)
        .where('c.code', '=', ctx.params.code)
        .executeTakeFirst();
      if (!before) throw notFound();
      if (before.usage_count > 0)
        throw ruleBroken('inUseCannotDelete', [`Code [${ctx.params.code}]`, `${before.usage_count} rate(s)`]);
      await trx
        .deleteFrom('codes')
        .where('code_deck_id', '=', ctx.params.id)
        .where('code', '=', ctx.params.code)
        .execute();
      await touchDeck(trx, ctx.params.id, actorOf(ctx).user.name);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'code',
        `${ctx.params.id}:${ctx.params.code}`,
        'delete',
        before,
        null,
      );
    });
    s.configChanged.notify();
    return null;
  });

  implement(app, s, api.rates.importCodes, async (ctx) => {
    await deckExists(s.db, ctx.params.id);
    const file = await receiveUpload(s, ctx as never, api.rates.codeImportOptions);
    try {
      const rows = await readKeyedRows(file.filePath, file.kind, {
        code: ['prefix', 'dial_code'],
        code_name: ['name', 'destination', 'description'],
        country: [],
      });
      const errors: { line: number; key: MessageKey; params: (string | number)[] }[] = [];
      const codes = new Map<string, { code_name: string; country: string }>();
      for (const r of rows) {
        const code = r.values.code ?? '';
        if (!code) errors.push({ line: r.line, key: 'required', params: ['code'] });
        else if (!/^\d{1,32}$/.test(code)) errors.push({ line: r.line, key: 'digitsOnly', params: ['code'] });
        else if ((r.values.code_name ?? '').length > 100)
          errors.push({ line: r.line, key: 'tooLong', params: ['code_name', 100] });
        else
          codes.set(code, {
            code_name: r.values.code_name ?? '',
            country: (r.values.country ?? '').slice(0, 100),
          });
      }
      if (errors.length) throw rowErrors(errors);
      if (codes.size === 0) throw rowErrors([{ line: 1, key: 'importNoRows', params: [] }]);
      const all = [...codes.entries()];
      const result = await s.db.transaction().execute(async (trx) => {
        let deleted = 0;
        if (file.options.mode === 'replace') {
          // Codes still in the file are written again below; only the others really go.
          const r =
            await sql`DELETE FROM codes WHERE code_deck_id = ${ctx.params.id} AND code NOT IN (SELECT unnest(${all.map(([c]) => c)}::text[]))`.execute(
              trx,
            );
          deleted = Number(r.numAffectedRows ?? 0);
        }
        let inserted = 0;
        for (let i = 0; i < all.length; i += 10000) {
          const part = all.slice(i, i + 10000);
          const r = await sql<{ inserted: number }>`
            WITH up AS (
              INSERT INTO codes (code_deck_id, code, code_name, country)
              SELECT ${ctx.params.id}::int, * FROM unnest(${part.map(([c]) => c)}::text[], ${part.map(([, v]) => v.code_name)}::text[], ${part.map(([, v]) => v.country)}::text[])
              ON CONFLICT (code_deck_id, code) DO UPDATE SET code_name = EXCLUDED.code_name, country = EXCLUDED.country
              RETURNING (xmax = 0) AS fresh)
            SELECT (count(*) FILTER (WHERE fresh))::int AS inserted FROM up`.execute(trx);
          inserted += Number(r.rows[0]?.inserted ?? 0);
        }
        await touchDeck(trx, ctx.params.id, actorOf(ctx).user.name);
        const counts = {
          total_rows: rows.length,
          inserted_rows: inserted,
          updated_rows: all.length - inserted,
          deleted_rows: deleted,
        };
        await s.audit.record(trx, actorOf(ctx), 'code_deck', ctx.params.id, 'import', null, {
          file_name: file.fileName,
          mode: file.options.mode,
          ...counts,
        });
        return counts;
      });
      s.configChanged.notify();
      return { object_id: ctx.params.id, ...result };
    } finally {
      fs.rmSync(file.filePath, { force: true });
    }
  });
}

async function touchDeck(db: Db, id: number, user: string): Promise<void> {
  await db
    .updateTable('code_decks')
    .set({ updated_at: new Date(), updated_by: user })
    .where('code_deck_id', '=', id)
    .execute();
}
