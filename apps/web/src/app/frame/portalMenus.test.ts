import type { ClientPanel } from '@tandem/contract';
import { describe, expect, it } from 'vitest';
import { clientMenuEntries, referralLink } from './portalMenus';

const t = (k: string) => k;
const base: ClientPanel = {
  client_id: 1,
  name: 'Acme',
  client_type: 'client',
  company_type: 'termination',
  is_panel_accountsummary: true,
  is_panel_paymenthistory: true,
  is_panel_invoices: true,
  is_panel_balance: true,
  is_panel_onlinepayment: true,
  is_panel_trunks: true,
  enable_trunk_view: true,
  is_panel_didrequest: true,
  is_panel_mydid: true,
  is_panel_products: true,
  is_panel_cdrslist: true,
  is_panel_summaryreport: true,
  is_panel_block_list: true,
  ticket_menu: 'true',
};
const keys = (c: ClientPanel, n = 0) =>
  clientMenuEntries(c, n, t).flatMap((e) => [e.key, ...(e.children ?? []).map((x) => x.key)]);
const labelOf = (c: ClientPanel, key: string) =>
  clientMenuEntries(c, 0, t)
    .flatMap((e) => e.children ?? [])
    .find((x) => x.key === key)?.label;

describe('client and vendor menu', () => {
  it('gives a termination client billing, trunks, block list and the termination reports', () => {
    const k = keys(base);
    expect(k).toEqual(
      expect.arrayContaining([
        'billing',
        'account_summary',
        'invoices',
        'my_ip_address',
        'block_list',
        'products',
        'disconnection_cause_report',
      ]),
    );
    expect(k).not.toContain('buy_did');
    expect(k).not.toContain('did_cdr');
    expect(labelOf(base, 'my_ip_address')).toBe('menu.trunks');
  });
  it('gives vendors no billing and no products', () => {
    const k = keys({ ...base, client_type: 'vendor' });
    expect(k).not.toContain('billing');
    expect(k).not.toContain('products');
  });
  it('gives origination DIDs, "My IP address", no block list and no disconnection cause report', () => {
    const o = { ...base, company_type: 'origination' as const };
    const k = keys(o);
    expect(k).toEqual(
      expect.arrayContaining(['buy_did', 'my_did', 'port_did', 'did_trunks', 'did_cdr', 'did_report']),
    );
    expect(keys({ ...o, client_type: 'vendor' })).not.toContain('port_did');
    expect(k).not.toContain('block_list');
    expect(k).not.toContain('disconnection_cause_report');
    expect(labelOf(o, 'my_ip_address')).toBe('menu.myIpAddress');
  });
  it('shows the rate export log only when the export log has rows, and respects panel flags', () => {
    expect(keys(base, 0)).not.toContain('rate_export_log');
    expect(keys(base, 3)).toContain('rate_export_log');
    expect(keys({ ...base, is_panel_invoices: false, is_panel_trunks: false })).not.toEqual(
      expect.arrayContaining(['invoices']),
    );
    expect(keys({ ...base, is_panel_trunks: false })).not.toContain('my_ip_address');
  });
  it('builds the referral link and shows 10 characters of the key', () => {
    expect(referralLink('https://p.example', 'ABCDEFGHIJKLMNOP')).toEqual({
      href: 'https://p.example/#/signup/index/ABCDEFGHIJKLMNOP',
      display: 'https://p.example/#/signup/index/ABCDEFGHIJ',
    });
  });
});
