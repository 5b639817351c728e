import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startHarness, upload, type Harness } from './harness';

/** Rate import: the real SDF deck through the import endpoint, duplicate modes, atomicity, XLSX, export. */
let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
});
afterAll(() => h.close());

// shared/ sits beside the repository (as in CI's clone).
const SDF = path.resolve(import.meta.dirname, '../../../../../shared/data/rate-decks/sdf-outbound-rates.csv');
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
interface Rate {
  rate_id: number;
  code: string;
  code_name: string;
  rate: string;
  intra_rate: string | null;
  min_time: number;
  interval: number;
  grace_time: number;
  setup_fee: string;
  effective_date: string;
  end_date: string | null;
  state: string;
}

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
