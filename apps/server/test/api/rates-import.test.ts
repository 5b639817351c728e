import type { api } from '@tandem/contract';
import path from 'node:path';
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fails, invalid, ok, startHarness, upload, type Harness } from './harness';

/** Rate import: the real SDF deck through the import endpoint, duplicate modes, atomicity, XLSX, export. */
let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
});
afterAll(() => h.close());

// The deck ships in the repository's datasets/ folder (origin and licence in datasets/README.md).
const SDF = path.resolve(import.meta.dirname, '../../../../datasets/rate-decks/sdf-outbound-rates.csv');
const SDF_MAPPING = JSON.stringify({
  Destination: 'code_name',
  Prefix: 'code',
  'First Interval': 'min_time',
  'Sub Interval': 'interval',
  Rate: 'rate',
  Status: '',
  'Start Date': 'effective_date',
  'End Date': 'end_date',
});

interface Task {
  id: number;
  status: string;
  progress: number;
  total_rows: number;
  inserted_rows: number;
  updated_rows: number;
  skipped_rows: number;
  ended_rows: number;
  deleted_rows: number;
  error_rows: number;
  message: string;
}
/** A rate row as the API answers it (the contract's own type). */
type Rate = api.rates.RateRow;

async function makeTable(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  return ok(
    await h.call<{ object_id: number }>('POST', '/api/rate/rate_table/create', {
      token: admin,
      body: { name, ...extra },
    }),
  ).object_id;
}
async function waitTask(id: number): Promise<Task> {
  for (let i = 0; i < 600; i++) {
    const t = ok(await h.call<Task>('GET', `/api/rate/import/${id}`, { token: admin }));
    if (t.status !== 'Insert new rate') return t;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('import did not finish');
}
async function importFile(
  tableId: number,
  fields: Record<string, string>,
  name: string,
  data: Buffer | string,
): Promise<Task> {
  const r = await upload(h, `/api/rate/rate_table/${tableId}/import`, admin, fields, {
    name,
    data: Buffer.from(data),
  });
  return waitTask(ok(r).object_id);
}
async function rates(tableId: number, query = ''): Promise<{ items: Rate[]; total: number }> {
  return ok(
    await h.call<{ items: Rate[]; total: number }>(
      'GET',
      `/api/rate/rate_table/${tableId}/rates?per_page=100${query}`,
      { token: admin },
    ),
  );
}

describe('rate import of the real SDF deck', () => {
  let sdf: number;
  it("under 'reject' refuses the whole deck for its 9 rows without a rate, records each row's error and changes nothing", async () => {
    sdf = await makeTable('SDF vendor');
    const t = await importFile(
      sdf,
      { mapping: SDF_MAPPING, duplicate_mode: 'reject' },
      'sdf-outbound-rates.csv',
      fs.readFileSync(SDF),
    );
    expect(t).toMatchObject({
      status: 'Failed',
      progress: 100,
      total_rows: 27523,
      inserted_rows: 0,
      error_rows: 9,
      message: 'Import rejected: 9 row(s) with errors; nothing was changed',
    });
    expect((await rates(sdf)).total).toBe(0);
    const errors = ok(
      await h.call<{
        items: { line: number; code: string; field: string; message: string }[];
        total: number;
      }>('GET', `/api/rate/import/${t.id}/errors`, { token: admin }),
    );
    expect(errors.total).toBe(9);
    expect(errors.items[0]).toMatchObject({
      line: 583,
      code: '43820',
      field: 'rate',
      message: 'rate is required',
    });
    expect(errors.items.map((e) => e.code)).toContain('1900');
  });

  it("under 'skip' imports the 27,514 good rows with a header mapping and keeps every value exactly", async () => {
    const t = await importFile(
      sdf,
      { mapping: SDF_MAPPING, duplicate_mode: 'skip' },
      'sdf-outbound-rates.csv',
      fs.readFileSync(SDF),
    );
    expect(t).toMatchObject({
      status: 'Finished',
      progress: 100,
      total_rows: 27523,
      inserted_rows: 27514,
      error_rows: 9,
      updated_rows: 0,
      skipped_rows: 0,
    });
    expect((await rates(sdf)).total).toBe(27514);
    const kabul = (await rates(sdf, '&code=9320')).items.find((r) => r.code === '9320');
    expect(kabul).toMatchObject({
      code_name: 'AFGHANISTAN - KABUL',
      rate: '0.2875',
      min_time: 30,
      interval: 6,
      effective_date: '2010-06-26T06:55:00.000Z',
      end_date: null,
      state: 'current',
    });
    const anguilla = (await rates(sdf, '&code=1264773')).items[0];
    expect(anguilla).toMatchObject({
      code: '1264773',
      code_name: 'ANGUILLA, MOBILE',
      rate: '0.2462',
      min_time: 30,
      interval: 6,
      effective_date: '2010-07-02T11:06:58.484Z',
    });
    const zimbabwe = (await rates(sdf, '&code=263')).items.find((r) => r.code === '263');
    expect(zimbabwe).toMatchObject({ code_name: 'ZIMBABWE - PROPER', rate: '0.1185' });
    const mexico = await rates(sdf, '&code_name=mexico');
    expect(mexico.total).toBeGreaterThan(0);
    expect(mexico.items.every((r) => r.min_time === 60 && r.interval === 60)).toBe(true);
    expect((await rates(sdf, '&code=43820')).total).toBe(0);
  });
});

/** Every row of a table as stored, to compare before and after a refused import. */
const snapshot = (tableId: number) =>
  h.built.services.db
    .selectFrom('rates')
    .selectAll()
    .where('rate_table_id', '=', tableId)
    .orderBy('rate_id')
    .execute();
const errorsOf = async (taskId: number) =>
  ok(
    await h.call<{ items: { line: number; code: string; field: string; message: string }[]; total: number }>(
      'GET',
      `/api/rate/import/${taskId}/errors?per_page=100`,
      { token: admin },
    ),
  );

describe('duplicate handling, bad rows and atomicity', () => {
  let t: number;
  const existing =
    'code,code_name,rate,min_time,interval,effective_date\n441,UK A,0.10,30,6,2026-01-01\n442,UK B,0.20,30,6,2026-01-01\n443,UK C,0.30,30,6,2026-01-01\n';
  it('loads the existing rows', async () => {
    t = await makeTable('Dups', { decimal_places: 4 });
    const r = await importFile(t, { duplicate_mode: 'reject' }, 'base.csv', existing);
    expect(r).toMatchObject({ status: 'Finished', inserted_rows: 3, error_rows: 0 });
  });

  it("'reject' with a bad row changes nothing and records the row's error", async () => {
    const before = await snapshot(t);
    const file =
      'code,code_name,rate,effective_date\n444,UK D,0.40,2026-01-01\n445,UK E,abc,2026-01-01\n441,UK A,0.15,2026-01-01\n';
    const r = await importFile(t, { duplicate_mode: 'reject' }, 'bad.csv', file);
    expect(r).toMatchObject({
      status: 'Failed',
      inserted_rows: 0,
      updated_rows: 0,
      error_rows: 1,
      message: 'Import rejected: 1 row(s) with errors; nothing was changed',
    });
    expect(await snapshot(t)).toEqual(before);
    expect((await errorsOf(r.id)).items).toEqual([
      {
        id: expect.any(Number) as unknown,
        line: 3,
        code: '445',
        field: 'rate',
        message: 'rate must be a valid positive floating number',
      },
    ]);
  });

  it("'reject' refuses rows whose code and effective date exist, naming each", async () => {
    const before = await snapshot(t);
    const r = await importFile(
      t,
      { duplicate_mode: 'reject' },
      'again.csv',
      'code,rate,effective_date\n444,0.4,2026-01-01\n442,0.25,2026-01-01 00:00:00\n',
    );
    expect(r).toMatchObject({ status: 'Failed', error_rows: 1 });
    expect(await snapshot(t)).toEqual(before);
    expect((await errorsOf(r.id)).items[0]).toMatchObject({
      line: 3,
      code: '442',
      message: 'the code [442] with effective date [2026-01-01 00:00:00] already exists',
    });
    const within = await importFile(
      t,
      { duplicate_mode: 'reject' },
      'twice.csv',
      'code,rate,effective_date\n500,0.4,2026-01-01\n500,0.5,2026-01-01\n',
    );
    expect(within).toMatchObject({ status: 'Failed', error_rows: 1 });
    expect((await errorsOf(within.id)).items[0]).toMatchObject({
      line: 3,
      code: '500',
      message: 'duplicate codes [500]',
    });
  });

  it("'skip' keeps existing rows and the first of in-file duplicates; bad rows are skipped and listed", async () => {
    const file =
      'code,rate,effective_date\n441,0.99,2026-01-01\n446,0.46,2026-01-01\n446,0.47,2026-01-01\n447,-1,2026-01-01\n';
    const r = await importFile(t, { duplicate_mode: 'skip' }, 'skip.csv', file);
    expect(r).toMatchObject({
      status: 'Finished',
      total_rows: 4,
      inserted_rows: 1,
      skipped_rows: 2,
      error_rows: 1,
    });
    expect((await rates(t, '&code=441')).items[0]?.rate).toBe('0.1000');
    expect((await rates(t, '&code=446')).items[0]?.rate).toBe('0.4600');
    expect((await errorsOf(r.id)).items.map((e) => [e.line, e.field])).toEqual([[5, 'rate']]);
  });

  it("'overwrite' replaces existing rows (columns the file lacks keep their values) and keeps the last in-file duplicate", async () => {
    const file =
      'code,rate,effective_date\n441,0.11115,2026-01-01\n448,0.48,2026-01-01\n448,0.49,2026-01-01\n';
    const r = await importFile(t, { duplicate_mode: 'overwrite' }, 'over.csv', file);
    expect(r).toMatchObject({ status: 'Finished', inserted_rows: 1, updated_rows: 1, error_rows: 0 });
    expect((await rates(t, '&code=441')).items[0]).toMatchObject({
      rate: '0.1112',
      code_name: 'UK A',
      min_time: 30,
      interval: 6,
    });
    expect((await rates(t, '&code=448')).items[0]?.rate).toBe('0.4900');
  });

  it('a failure in the middle of applying (after end dates and updates) rolls everything back', async () => {
    const db = h.built.services.db;
    await sql`CREATE FUNCTION refuse_999() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.code = '999' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`.execute(
      db,
    );
    await sql`CREATE TRIGGER refuse_999 BEFORE INSERT ON rates FOR EACH ROW EXECUTE FUNCTION refuse_999()`.execute(
      db,
    );
    try {
      const before = await snapshot(t);
      const file = 'code,rate,effective_date\n441,0.5,2026-01-01\n442,0.6,2026-03-01\n999,0.1,2026-03-01\n';
      const r = await importFile(t, { duplicate_mode: 'overwrite', end_previous: 'true' }, 'boom.csv', file);
      expect(r).toMatchObject({ status: 'Failed', message: 'Import error, please try again' });
      expect(await snapshot(t)).toEqual(before);
    } finally {
      await sql`DROP TRIGGER refuse_999 ON rates`.execute(db);
      await sql`DROP FUNCTION refuse_999()`.execute(db);
    }
  });
});

describe('effective dates, end dates, templates, XLSX, export, mass edit, rules, logs', () => {
  let t: number;
  it('rows without a date take the default effective date; end previous and end absent set end dates', async () => {
    t = await makeTable('Dates', { decimal_places: 3 });
    await importFile(
      t,
      { default_effective_date: '2026-01-01T00:00:00Z' },
      'a.csv',
      'code,code_name,rate\n331,FR A,0.1\n332,FR B,0.2\n333,FR C,0.3\n',
    );
    const r = await importFile(
      t,
      { default_effective_date: '2026-03-01T00:00:00Z', end_previous: 'true', end_absent: 'true' },
      'b.csv',
      'code,rate,effective_date\n331,0.15,\n332,0.25,2026-04-01\n',
    );
    expect(r).toMatchObject({ status: 'Finished', inserted_rows: 2, ended_rows: 3 });
    const rows = (await rates(t, '&order_by=effective_date')).items.map((x) => [
      x.code,
      x.rate,
      x.effective_date.slice(0, 10),
      x.end_date?.slice(0, 10) ?? null,
    ]);
    expect(rows.sort()).toEqual(
      [
        ['331', '0.100', '2026-01-01', '2026-03-01'],
        ['331', '0.150', '2026-03-01', null],
        ['332', '0.200', '2026-01-01', '2026-04-01'],
        ['332', '0.250', '2026-04-01', null],
        ['333', '0.300', '2026-01-01', '2026-03-01'],
      ].sort(),
    );
  });

  it('a rate upload template sets the date format, delete existing and end date options; id 0 is "Use no template"', async () => {
    const tpl = ok(
      await h.call<{ object_id: number }>('POST', '/api/rate/upload_template/create', {
        token: admin,
        body: {
          name: 'EU vendor',
          effective_date_format: 'DD/MM/YYYY',
          delete_existing: true,
          end_date_option: 'keep',
          duplicate_mode: 'overwrite',
          default_effective_days: 0,
        },
      }),
    ).object_id;
    const bad = await importFile(
      t,
      { template_id: '0' },
      'eu.csv',
      'code,rate,effective_date\n49,0.05,31/12/2026\n',
    );
    expect(bad).toMatchObject({ status: 'Failed', error_rows: 1 });
    expect((await errorsOf(bad.id)).items[0]?.message).toBe(
      'Date format in rate file is wrong: effective_date [31/12/2026] (expected YYYY-MM-DD)',
    );
    const good = await importFile(
      t,
      { template_id: String(tpl) },
      'eu.csv',
      'code,rate,effective_date\n49,0.05,31/12/2026 08:30\n',
    );
    expect(good).toMatchObject({ status: 'Finished', inserted_rows: 1, deleted_rows: 5 });
    expect((await rates(t)).items.map((x) => [x.code, x.effective_date])).toEqual([
      ['49', '2026-12-31T08:30:00.000Z'],
    ]);
    const missing = await upload(
      h,
      `/api/rate/rate_table/${t}/import`,
      admin,
      { template_id: '999999' },
      { name: 'x.csv', data: Buffer.from('code,rate\n1,1\n') },
    );
    expect(missing.body.errors?.template_id).toBeDefined();
    const noCode = await importFile(t, {}, 'nocode.csv', 'prefix_x,rate\n1,1\n');
    expect(noCode).toMatchObject({ status: 'Failed', message: 'The file has no [code] column' });
  });

  it('imports XLSX (first sheet, header by name, numbers and dates as cells)', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('deck');
    sheet.addRow(['Prefix', 'Destination', 'Rate', 'Effective Date', 'Interval']);
    sheet.addRow(['3361', 'FRANCE MOBILE', 0.0615, new Date(Date.UTC(2026, 0, 1)), 60]);
    sheet.addRow([3362, 'FRANCE, OTHER', 0.0725, '2026-01-01', 1]);
    const data = Buffer.from(await book.xlsx.writeBuffer());
    const x = await makeTable('From XLSX', { decimal_places: 4 });
    const r = await importFile(x, { duplicate_mode: 'reject' }, 'deck.xlsx', data);
    expect(r).toMatchObject({ status: 'Finished', inserted_rows: 2, error_rows: 0 });
    expect(
      (await rates(x, '&order_by=code')).items.map((q) => [
        q.code,
        q.code_name,
        q.rate,
        q.interval,
        q.effective_date,
      ]),
    ).toEqual([
      ['3361', 'FRANCE MOBILE', '0.0615', 60, '2026-01-01T00:00:00.000Z'],
      ['3362', 'FRANCE, OTHER', '0.0725', 1, '2026-01-01T00:00:00.000Z'],
    ]);
    const notXlsx = await upload(
      h,
      `/api/rate/rate_table/${x}/import`,
      admin,
      {},
      { name: 'deck.xlsx', data: Buffer.from('code,rate\n1,1\n') },
    );
    expect(notXlsx.body.errors?.file).toBe("You can't upload files of this type.");
  });

  it('exports CSV (formula cells escaped) and XLSX that import back to the same rows', async () => {
    const x = await makeTable('Export', { decimal_places: 4 });
    await importFile(
      x,
      {},
      'e.csv',
      'code,code_name,country,rate,min_time,interval,effective_date\n33,"-FRANCE, =X",France,0.05,30,6,2026-01-01\n34,SPAIN,Spain,0.06,60,60,2026-01-01\n',
    );
    const res = await h.built.app.inject({
      method: 'GET',
      url: `/api/rate/rate_table/${x}/export?format=csv&code=3`,
      headers: { 'x-auth-token': admin },
    });
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'code,code_name,country,rate,intra_rate,inter_rate,ij_rate,local_rate,min_time,interval,setup_fee,grace_time,effective_date,end_date',
    );
    expect(lines[1]).toBe(`33,"'-FRANCE, =X",France,0.0500,,,,,30,6,0.0000,0,2026-01-01T00:00:00.000Z,`);
    expect(lines).toHaveLength(3);
    const xl = await h.built.app.inject({
      method: 'GET',
      url: `/api/rate/rate_table/${x}/export?format=xlsx`,
      headers: { 'x-auth-token': admin },
    });
    const copy = await makeTable('Export copy', { decimal_places: 4 });
    const r = await importFile(copy, {}, 'copy.xlsx', xl.rawPayload);
    expect(r).toMatchObject({ status: 'Finished', inserted_rows: 2 });
    const strip = (rows: Rate[]) => rows.map(({ rate_id: _id, ...rest }) => rest);
    expect(strip((await rates(copy, '&order_by=code')).items)).toEqual(
      strip((await rates(x, '&order_by=code')).items),
    );
  });

  it('mass edit: set to, increase by, decrease by (not below 0), multiply by, no change; on the filtered rows; logged', async () => {
    const x = await makeTable('Mass', { decimal_places: 4, rate_type: 'us_jurisdictional' });
    await importFile(
      x,
      {},
      'm.csv',
      'code,rate,intra_rate,inter_rate,local_rate,effective_date\n1201,0.0100,0.0200,0.0300,,2026-01-01\n1202,0.0100,0.0200,0.0300,0.0010,2026-01-01\n44,0.5000,,,,2026-01-01\n',
    );
    const edit = (body: unknown) =>
      h.call<{ affected: number }>('POST', `/api/rate/rate_table/${x}/mass_edit`, { token: admin, body });
    const r = ok(
      await edit({
        filter: { code: '1' },
        changes: {
          rate: { action: 'multiply_by', value: '1.055' },
          intra_rate: { action: 'increase_by', value: '0.00015' },
          inter_rate: { action: 'decrease_by', value: '0.05' },
          ij_rate: { action: 'set_to', value: '0.04' },
          local_rate: { action: 'no_change' },
        },
      }),
    );
    expect(r.affected).toBe(2);
    const rows = (await rates(x, '&order_by=code')).items.map((q) => [
      q.code,
      q.rate,
      q.intra_rate,
      q.inter_rate,
      q.ij_rate,
      q.local_rate,
    ]);
    expect(rows).toEqual([
      ['1201', '0.0106', '0.0202', '0.0000', '0.0400', null],
      ['1202', '0.0106', '0.0202', '0.0000', '0.0400', '0.0010'],
      ['44', '0.5000', null, null, null, null],
    ]);
    invalid(
      await edit({ changes: { rate: { action: 'set_to' } } }),
      'changes.rate.value',
      'changes.rate.value is required',
    );
    invalid(await edit({ changes: { rate: { action: 'set_to', value: '-1' } } }), 'changes.rate.value');
    const log = ok(
      await h.call<{
        items: {
          rate_table_name: string;
          affected_rows: number;
          actions: Record<string, unknown>;
          filter: Record<string, unknown>;
        }[];
      }>('GET', `/api/rate/mass_edit_log?rate_table_id=${x}`, { token: admin }),
    );
    expect(log.items[0]).toMatchObject({
      rate_table_name: 'Mass',
      affected_rows: 2,
      filter: { code: '1' },
      actions: { rate: { action: 'multiply_by', value: '1.055' } },
    });
  });

  it('auto rate import rules import through their upload path with their table and template; inactive rules refuse', async () => {
    const x = await makeTable('Auto target');
    const tpl = ok(
      await h.call<{ object_id: number }>('POST', '/api/rate/upload_template/create', {
        token: admin,
        body: { name: 'US style', effective_date_format: 'MM/DD/YYYY' },
      }),
    ).object_id;
    const rule = ok(
      await h.call<{ object_id: number }>('POST', '/api/rate/auto_import_rule/create', {
        token: admin,
        body: { name: 'Vendor A mail', rate_table_id: x, template_id: tpl, email_subject: 'Rate notice' },
      }),
    ).object_id;
    const up = await upload(
      h,
      `/api/rate/auto_import_rule/${rule}/upload`,
      admin,
      {},
      { name: 'a.csv', data: Buffer.from('code,rate,effective_date\n1,0.01,12/31/2026\n') },
    );
    const task = await waitTask(ok(up).object_id);
    expect(task).toMatchObject({ status: 'Finished', inserted_rows: 1 });
    expect((await rates(x)).items[0]?.effective_date).toBe('2026-12-31T00:00:00.000Z');
    const listed = ok(
      await h.call<{
        items: {
          name: string;
          rate_table_name: string;
          template_name: string;
          last_import_at: string | null;
        }[];
      }>('GET', '/api/rate/auto_import_rule/list', { token: admin }),
    );
    expect(listed.items[0]).toMatchObject({
      name: 'Vendor A mail',
      rate_table_name: 'Auto target',
      template_name: 'US style',
      last_import_at: expect.any(String) as unknown,
    });
    fails(
      await h.call('DELETE', `/api/rate/upload_template/${tpl}`, { token: admin }),
      170,
      /1 auto rate import rule/,
    );
    // 'Use no template' is id 0: stored as none.
    const plain = ok(
      await h.call<{ object_id: number }>('POST', '/api/rate/auto_import_rule/create', {
        token: admin,
        body: { name: 'Plain rule', rate_table_id: x, template_id: 0 },
      }),
    ).object_id;
    expect(
      ok(
        await h.call<{ template_id: number | null }>('GET', `/api/rate/auto_import_rule/${plain}`, {
          token: admin,
        }),
      ).template_id,
    ).toBeNull();
    ok(await h.call('PATCH', `/api/rate/auto_import_rule/${rule}/deactivate`, { token: admin }));
    fails(
      await upload(
        h,
        `/api/rate/auto_import_rule/${rule}/upload`,
        admin,
        {},
        { name: 'a.csv', data: Buffer.from('code,rate\n1,1\n') },
      ),
      170,
      'The auto rate import rule is inactive',
    );
  });

  it('the rate import log lists every task with its counts and the frame counts the running ones', async () => {
    const log = ok(
      await h.call<{ items: Task[]; total: number }>('GET', '/api/rate/import_log?per_page=100', {
        token: admin,
      }),
    );
    expect(log.total).toBeGreaterThan(10);
    expect(log.items.every((x) => ['Finished', 'Failed'].includes(x.status))).toBe(true);
    const failed = ok(
      await h.call<{ items: Task[]; total: number }>(
        'GET',
        '/api/rate/import_log?status=Failed&per_page=100',
        { token: admin },
      ),
    );
    expect(failed.items.every((x) => x.status === 'Failed' && x.message !== '')).toBe(true);
    const running = ok(
      await h.call<{ total: number }>(
        'GET',
        `/api/tool/rate/import/list?status=${encodeURIComponent('Insert new rate')}`,
        { token: admin },
      ),
    );
    expect(running.total).toBe(0);
    const staged = await sql<{ n: number }>`select count(*)::int as n from rate_import_rows`.execute(
      h.built.services.db,
    );
    expect(staged.rows[0]?.n).toBe(0);
  });
});
