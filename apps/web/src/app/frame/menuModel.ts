import { ALWAYS_HIDDEN_URLS, menuDisplayName, MENU_COLUMN_THRESHOLD, type Submenu } from '@tandem/contract';

export interface MenuGroup {
  id: number;
  name: string;
  items: { display_name: string; web_url: string; sub: 'termination' | 'origination' | null }[];
  /** Statistics: two columns by sub. */
  split: boolean;
  /** More entries than the threshold: shown in columns. */
  columns: boolean;
}

/** Admin header menu from the server's submenu rows: readable items, renamed, grouped in module order. */
export function buildAdminMenu(rows: readonly Submenu[]): MenuGroup[] {
  const groups = new Map<number, MenuGroup>();
  for (const r of rows) {
    if (!r.is_readable && !r.is_editable) continue;
    if (ALWAYS_HIDDEN_URLS.includes(r.web_url)) continue;
    let g = groups.get(r.main_menu_id);
    if (!g) {
      g = { id: r.main_menu_id, name: r.group_name, items: [], split: false, columns: false };
      groups.set(r.main_menu_id, g);
    }
    g.items.push({
      display_name: menuDisplayName(r.group_name, r.display_name),
      web_url: r.web_url,
      sub: r.sub,
    });
  }
  const out = [...groups.values()];
  for (const g of out) {
    g.split = g.items.some((i) => i.sub !== null);
    g.columns = !g.split && g.items.length > MENU_COLUMN_THRESHOLD;
  }
  return out;
}
