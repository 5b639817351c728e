import {
  ALWAYS_HIDDEN_URLS,
  menuDisplayName,
  menuItemLabel,
  menuModuleLabel,
  MENU_COLUMN_THRESHOLD,
  type Language,
  type Submenu,
} from '@tandem/contract';

export interface MenuItem {
  /** The catalogue's English name after the display renames (stable across languages). */
  display_name: string;
  /** The name in the user's language. */
  label: string;
  web_url: string;
  sub: 'termination' | 'origination' | null;
  /** False when the page comes in a later version (shown with a badge). */
  built: boolean;
}

export interface MenuGroup {
  id: number;
  /** The server's group name: the module's key (test ids use it). */
  name: string;
  /** The module's name in the user's language. */
  label: string;
  items: MenuItem[];
  /** Statistics: two columns by sub. */
  split: boolean;
  /** More entries than the threshold: shown in columns of at most MENU_COLUMN_THRESHOLD rows. */
  columns: boolean;
}

/**
 * Admin header menu from the server's submenu rows: readable items, renamed and labelled in the
 * user's language, grouped in module order. `isBuilt` tells which pages this version serves.
 */
export function buildAdminMenu(
  rows: readonly Submenu[],
  lang: Language = 'en',
  isBuilt: (url: string) => boolean = () => true,
): MenuGroup[] {
  const groups = new Map<number, MenuGroup>();
  for (const r of rows) {
    if (!r.is_readable && !r.is_editable) continue;
    if (ALWAYS_HIDDEN_URLS.includes(r.web_url)) continue;
    let g = groups.get(r.main_menu_id);
    if (!g) {
      g = {
        id: r.main_menu_id,
        name: r.group_name,
        label: menuModuleLabel(r.main_menu_id, r.group_name, lang),
        items: [],
        split: false,
        columns: false,
      };
      groups.set(r.main_menu_id, g);
    }
    g.items.push({
      display_name: menuDisplayName(r.group_name, r.display_name),
      label: menuItemLabel(r.group_name, r.display_name, r.web_url, lang),
      web_url: r.web_url,
      sub: r.sub,
      built: isBuilt(r.web_url),
    });
  }
  const out = [...groups.values()];
  for (const g of out) {
    g.split = g.items.some((i) => i.sub !== null);
    g.columns = !g.split && g.items.length > MENU_COLUMN_THRESHOLD;
  }
  return out;
}
