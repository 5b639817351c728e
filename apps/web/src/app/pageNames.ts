import { isLanguage, menuItemLabel, menuModuleLabel, MENU_MODULES, type Language } from '@tandem/contract';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { portalPageLabelKey } from './frame/portalMenus';

export interface PageName {
  /** The page's name in the user's language. */
  name: string;
  /** The menu area it belongs to, in the user's language. */
  area: string;
}

/**
 * The name of a page the menus offer (admin catalogue item or portal menu entry), in the current
 * language, or null for a path no menu names.
 */
export function pageNameOf(path: string, t: TFunction, language: string): PageName | null {
  const lang = isLanguage(language) ? language : 'en';
  for (const m of MENU_MODULES) {
    const i = m.items.find((it) => path === it.web_url || path.startsWith(it.web_url + '/'));
    if (i)
      return {
        name: menuItemLabel(m.group_name, i.display_name, i.web_url, lang),
        area: menuModuleLabel(m.id, m.group_name, lang),
      };
  }
  const key = portalPageLabelKey(path);
  if (key)
    return { name: t(key), area: t(path.startsWith('/agents') ? 'frame.agentPortal' : 'frame.clientPortal') };
  return null;
}

/** The admin catalogue's labels in the current language (menus, landing page choices, role editor). */
export function useMenuLabels() {
  const { i18n } = useTranslation();
  const lang: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  return useMemo(
    () => ({
      module: (id: number, groupName: string) => menuModuleLabel(id, groupName, lang),
      item: (groupName: string, displayName: string, webUrl: string) =>
        menuItemLabel(groupName, displayName, webUrl, lang),
      /** "Module › Page" of a submenu row. */
      path: (m: { main_menu_id: number; group_name: string; display_name: string; web_url: string }) =>
        `${menuModuleLabel(m.main_menu_id, m.group_name, lang)} › ${menuItemLabel(m.group_name, m.display_name, m.web_url, lang)}`,
    }),
    [lang],
  );
}
