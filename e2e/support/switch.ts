import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { api, parseCsvLine } from '@tandem/contract';
import { call, unique } from './api';

/**
 * Helpers of the switch-configuration specs (issue 3): antd selects, the SDF rate deck, rate tables
 * and carriers prepared over the API, and the routing engine's snapshot (rebuilt in the background
 * after every configuration change).
 */

/** The real vendor deck of the project (Destination, Prefix, First Interval, Sub Interval, Rate, ...). */
export const SDF_DECK = path.resolve(import.meta.dirname, '../../datasets/rate-decks/sdf-outbound-rates.csv');

export interface DeckRow {
  destination: string;
  code: string;
  minTime: number;
  interval: number;
  rate: string;
  effective: string;
}

/** The rows of the SDF deck with the given codes (the deck's own destination, intervals, rate and start date). */
export function deckRows(codes: string[]): DeckRow[] {
  const lines = fs.readFileSync(SDF_DECK, 'utf8').split(/\r?\n/);
  const byCode = new Map<string, DeckRow>();
  for (const line of lines.slice(1)) {
    if (!line) continue;
    const [destination, code, first, sub, rate, , start] = parseCsvLine(line);
    if (code && codes.includes(code) && !byCode.has(code))
      byCode.set(code, {
        destination: destination!,
        code,
        minTime: Number(first),
        interval: Number(sub),
        rate: rate!,
        effective: start!,
      });
  }
  return codes.map((c) => {
    const row = byCode.get(c);
    if (!row) throw new Error(`code ${c} is not in the SDF deck`);
    return row;
  });
}

/** An address in 10.0.0.0/8 that no other spec uses (ingress trunks are found by source IP). */
export const randomIp = () => `10.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** A rate table (A-Z, 4 decimal places) with the given rows, over the API. */
export async function rateTableWith(
  token: string,
  prefix: string,
  rows: {
    code: string;
    code_name: string;
    country?: string;
    rate: string;
    min_time?: number;
    interval?: number;
    effective?: string;
    intra_rate?: string;
    inter_rate?: string;
  }[],
  rateType: (typeof api.rates.RATE_TYPES)[number] = 'a_z',
): Promise<{ id: number; name: string }> {
  const name = unique(prefix);
  const { object_id } = await call(api.rates.rateTable.create, {
    token,
    body: { name, currency: 'USD', rate_type: rateType, billing_method: 'dnis', decimal_places: 4 },
  });
  for (const r of rows)
    await call(api.rates.createRate, {
      token,
      params: { id: object_id },
      body: {
        code: r.code,
        code_name: r.code_name,
        ...(r.country ? { country: r.country } : {}),
        rate: r.rate,
        ...(r.intra_rate ? { intra_rate: r.intra_rate } : {}),
        ...(r.inter_rate ? { inter_rate: r.inter_rate } : {}),
        min_time: r.min_time ?? 1,
        interval: r.interval ?? 1,
        effective_date: r.effective ?? '2010-01-01T00:00:00Z',
      },
    });
  return { id: object_id, name };
}

/** A vendor with one egress trunk (host `ip`) billed by `rateTableId`, over the API. */
export async function vendorWithTrunk(
  token: string,
  opts: { rateTableId: number; ip: string },
): Promise<{ carrierId: number; carrierName: string; trunkId: number; trunkName: string }> {
  const carrierName = unique('vendor');
  const carrierId = (
    await call(api.carriers.carrier.create, {
      token,
      body: {
        name: carrierName,
        company: `${carrierName} Ltd`,
        client_type: 'vendor',
        main_email: `${carrierName.toLowerCase()}@example.com`,
      },
    })
  ).object_id;
  const trunkName = unique('vtrunk');
  const trunkId = (
    await call(api.trunks.trunk.create, {
      token,
      body: {
        name: trunkName,
        carrier_id: carrierId,
        direction: 'egress',
        rate_table_id: opts.rateTableId,
        hosts: [{ host_type: 'ip', host: opts.ip, port: 5060, netmask: 32 }],
      },
    })
  ).object_id;
  return { carrierId, carrierName, trunkId, trunkName };
}

/**
 * Waits until the routing engine has applied every configuration change so far (the snapshot is
 * rebuilt in the background, debounced, after each write).
 */
export async function engineSettled(token: string): Promise<void> {
  await expect
    .poll(async () => (await call(api.routing.getEngineStatus, { token })).building, {
      timeout: 30_000,
      intervals: [100, 200, 300, 500],
    })
    .toBe(false);
}

/** The antd select around a locator (the test id may sit on the select's search input). */
const ANT_SELECT_ROOT =
  'xpath=ancestor-or-self::*[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]';

/**
 * Picks an option of an antd select (single or multiple) by its label; typing narrows long lists.
 * Checks that the select then shows the label, and picks again if not: a click that lands while
 * the option list is still loading or animating can leave the select empty (seen once in CI), and
 * a list that closes under the click (its options arriving while it opens) leaves the option
 * detached (seen once in CI): the select is opened again.
 */
export async function pick(page: Page, select: Locator, label: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await select.click();
    const search = select.locator('input');
    if ((await search.count()) > 0 && (await search.first().isEditable())) await search.first().fill(label);
    const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
    try {
      await dropdown
        .locator('.ant-select-item-option')
        .filter({ hasText: label })
        .first()
        .click({ timeout: 5_000 });
      await expect(select.locator(ANT_SELECT_ROOT)).toContainText(label, { timeout: 3_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/** Opens a tab of an antd Tabs by its label. */
export async function openTab(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('tab', { name }).click();
}
