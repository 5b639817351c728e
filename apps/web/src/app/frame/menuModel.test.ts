import { MENU_MODULES, missingMenuLabels, type Submenu } from '@tandem/contract';
import { describe, expect, it } from 'vitest';
import { buildAdminMenu } from './menuModel';

let id = 0;
const rows: Submenu[] = MENU_MODULES.flatMap((m) =>
  m.items.map((i, n) => ({
    id: ++id,
    main_menu_id: m.id,
    group_name: m.group_name,
    display_name: i.display_name,
    web_url: i.web_url,
    ordering: n,
    is_readable: true,
    is_editable: true,
    sub: i.sub ?? null,
  })),
);

describe('admin menu', () => {
  const menu = buildAdminMenu(rows);
  const group = (name: string) => menu.find((g) => g.name === name)!;
  it('applies the renames of the spec', () => {
    expect(group('Termination').items.map((i) => i.display_name)).toContain('Customer');
    expect(group('DID').items.map((i) => i.display_name)).toContain('Customer');
    expect(group('Monitoring').items.map((i) => i.display_name)).toContain('Live Monitoring');
    expect(group('Configuration').items.map((i) => i.display_name)).toContain('Login Page Content');
  });
  it('always hides lawful intercept', () => {
    expect(group('Tools').items.map((i) => i.web_url)).not.toContain('/tools/lawful_intercept');
  });
  it('splits Statistics into termination and origination and puts long groups in columns', () => {
    expect(group('Statistics').split).toBe(true);
    expect(group('Configuration').columns).toBe(true);
    expect(group('Agent').columns).toBe(false);
  });
  it('drops items the role may not read and groups that end up empty', () => {
    const limited = buildAdminMenu(
      rows.map((r) => ({ ...r, is_readable: r.web_url === '/configuration/users', is_editable: false })),
    );
    expect(limited).toHaveLength(1);
    expect(limited[0]!.items.map((i) => i.web_url)).toEqual(['/configuration/users']);
  });
});

describe('admin menu labels', () => {
  it('labels every module and item in de and ch and keeps the English key', () => {
    const de = buildAdminMenu(rows, 'de');
    const tools = de.find((g) => g.name === 'Tools')!;
    expect(tools.label).toBe('Werkzeuge');
    expect(tools.items.find((i) => i.web_url === '/tools/call_simulation')!.label).toBe('Anrufsimulation');
    expect(tools.items.find((i) => i.web_url === '/tools/call_simulation')!.display_name).toBe(
      'Call Simulation',
    );
    const ch = buildAdminMenu(rows, 'ch');
    expect(ch.find((g) => g.name === 'Finance')!.label).toBe('财务');
    expect(missingMenuLabels()).toEqual([]);
  });
  it('marks pages this version does not serve', () => {
    const m = buildAdminMenu(rows, 'en', (u) => u === '/configuration/users');
    const cfg = m.find((g) => g.name === 'Configuration')!;
    expect(cfg.items.find((i) => i.web_url === '/configuration/users')!.built).toBe(true);
    expect(cfg.items.find((i) => i.web_url === '/configuration/archive_setting')!.built).toBe(false);
  });
});
