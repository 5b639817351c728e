import fs from 'node:fs';
import { api, type MessageKey } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { pageOf } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { rowErrors } from './code-decks';
import { readKeyedRows } from './import/keyed-rows';
import { receiveUpload } from './upload';

/** Configuration > US Jurisdiction: NPA-NXX -> state and LATA, uploaded as a file, listed and searched. */
export function registerJurisdiction(app: FastifyInstance, s: Services): void {
  implement(app, s, api.rates.listJurisdiction, async (ctx) => {
    const q = ctx.query;
    let qb = s.db.selectFrom('us_jurisdiction').select(['npanxx', 'state', 'lata']);
    if (q.npanxx) qb = qb.where('npanxx', 'like', `${q.npanxx.replace(/\D/g, '')}%`);
    if (q.state) qb = qb.where(sql`upper(state)`, '=', q.state.trim().toUpperCase());
    if (q.lata) qb = qb.where('lata', '=', q.lata.trim());
    const page = await pageOf(qb, q, { npanxx: 'npanxx', state: 'state', lata: 'lata' }, 'npanxx', 'npanxx');
    return {
      items: page.items.map((r) => ({ ...r, npa: r.npanxx.slice(0, 3), nxx: r.npanxx.slice(3) })),
      total: page.total,
    };
  });

  implement(app, s, api.rates.uploadJurisdiction, async (ctx) => {
    const file = await receiveUpload(s, ctx as never, api.rates.jurisdictionImportOptions);
    try {
      const rows = await readKeyedRows(file.filePath, file.kind, {
        npanxx: ['npa_nxx', 'npa-nxx', 'prefix'],
        state: ['st', 'ocn_state'],
        lata: [],
        npa: [],
        nxx: [],
      });
      const errors: { line: number; key: MessageKey; params: (string | number)[] }[] = [];
      const data = new Map<string, { state: string; lata: string }>();
      for (const r of rows) {
        const v = r.values;
        const npanxx = (v.npanxx || `${v.npa ?? ''}${v.nxx ?? ''}`).replace(/[\s-]/g, '');
        const state = (v.state ?? '').toUpperCase();
        if (!/^\d{6}$/.test(npanxx)) errors.push({ line: r.line, key: 'npanxxSixDigits', params: [] });
        else if (!state) errors.push({ line: r.line, key: 'required', params: ['state'] });
        else if (state.length > 32 || (v.lata ?? '').length > 16)
          errors.push({ line: r.line, key: 'invalidValue', params: [state.length > 32 ? 'state' : 'lata'] });
        else data.set(npanxx, { state, lata: v.lata ?? '' });
      }
      if (errors.length) throw rowErrors(errors);
      if (data.size === 0) throw rowErrors([{ line: 1, key: 'importNoRows', params: [] }]);
      const all = [...data.entries()];
      const result = await s.db.transaction().execute(async (trx) => {
        let deleted = 0;
        if (file.options.mode === 'replace') {
          const r =
            await sql`DELETE FROM us_jurisdiction WHERE npanxx NOT IN (SELECT unnest(${all.map(([k]) => k)}::text[]))`.execute(
              trx,
            );
          deleted = Number(r.numAffectedRows ?? 0);
        }
        let inserted = 0;
        for (let i = 0; i < all.length; i += 20000) {
          const part = all.slice(i, i + 20000);
          const r = await sql<{ inserted: number }>`
            WITH up AS (
              INSERT INTO us_jurisdiction (npanxx, state, lata)
              SELECT * FROM unnest(${part.map(([k]) => k)}::text[], ${part.map(([, v]) => v.state)}::text[], ${part.map(([, v]) => v.lata)}::text[])
              ON CONFLICT (npanxx) DO UPDATE SET state = EXCLUDED.state, lata = EXCLUDED.lata
              RETURNING (xmax = 0) AS fresh)
            SELECT (count(*) FILTER (WHERE fresh))::int AS inserted FROM up`.execute(trx);
          inserted += Number(r.rows[0]?.inserted ?? 0);
        }
        const counts = {
          total_rows: rows.length,
          inserted_rows: inserted,
          updated_rows: all.length - inserted,
          deleted_rows: deleted,
        };
        await s.audit.record(trx, actorOf(ctx), 'us_jurisdiction', 'upload', 'import', null, {
          file_name: file.fileName,
          mode: file.options.mode,
          ...counts,
        });
        return counts;
      });
      s.configChanged.notify();
      return { object_id: result.inserted_rows + result.updated_rows, ...result };
    } finally {
      fs.rmSync(file.filePath, { force: true });
    }
  });
}
