import { describe, expect, it } from 'vitest';
import type { EngineConfig, RateTableConfig } from '../src/config';
import { RateStore } from '../src/rate-store';
import { decide } from '../src/routing';
import { createRoutingState } from '../src/routing-types';
import { buildSnapshot } from '../src/snapshot';
import { MoneyReader, writeRateRowChecked } from '../src/snapshot-rates';
import { SnapshotError } from '../src/snapshot-types';
import { baseConfig, call, rates } from './fixtures';

/** The same tables with their rows in columns, as the server's rate cache hands them over. */
function inColumns(config: EngineConfig): EngineConfig {
  const money = new MoneyReader();
  return {
    ...config,
    rate_tables: config.rate_tables.map((t): RateTableConfig => {
      // a store with room to spare: only rows 0 .. count-1 count
      const store = new RateStore(t.rows.length + 3);
      t.rows.forEach((row, i) => expect(writeRateRowChecked(store, i, row, money)).toBeNull());
      return { ...t, rows: [], columns: { store, count: t.rows.length, invalid: null } };
    }),
  };
}

describe('rate tables given in columns', () => {
  const config = baseConfig({
    rate_tables: [
      rates(1, [
        { code: '44', code_name: 'UK', rate: '0.0200', min_time: 30, interval: 6 },
        { code: '447', code_name: 'UK mobile', rate: '0.0300', effective_date: Date.UTC(2024, 0, 1) },
        { code: '447', code_name: 'UK mobile', rate: '0.0310', effective_date: Date.UTC(2024, 5, 1) },
      ]),
      rates(11, [
        { code: '44', rate: '0.0100' },
        { code: '447', rate: '0.0150', end_date: Date.UTC(2024, 5, 1) },
      ]),
      rates(12, [{ code: '44', rate: '0.0080' }]),
      rates(13, [{ code: '4420', rate: '0.0120' }]),
    ],
  });

  it('build the same engine as rows given as objects', () => {
    const fromRows = buildSnapshot(config);
    const fromColumns = buildSnapshot(inColumns(config));
    expect(fromColumns.rate_tables.get(1)?.row_count).toBe(3);
    for (const dnis of ['442071234567', '447911123456', '4420', '33123', '44']) {
      for (const time of [Date.UTC(2024, 2, 1), Date.UTC(2024, 6, 1)]) {
        const c = call({ dnis, time });
        expect(decide(fromColumns, c, createRoutingState())).toEqual(
          decide(fromRows, c, createRoutingState()),
        );
      }
    }
  });

  it('refuse to build while a row failed its checks, naming the row and field', () => {
    const columns = inColumns(config);
    const broken: EngineConfig = {
      ...columns,
      rate_tables: columns.rate_tables.map((t) =>
        t.rate_table_id === 12
          ? {
              ...t,
              columns: {
                ...t.columns!,
                invalid: { code: '44', field: 'rate', message: 'amount out of range' },
              },
            }
          : t,
      ),
    };
    expect(() => buildSnapshot(broken)).toThrow(SnapshotError);
    expect(() => buildSnapshot(broken)).toThrow(/rate_tables\[2\]\.rows\[code 44\]\.rate/);
  });
});
