import type { Language } from '@tandem/contract';
import { i18next } from './index';

type Dict = { [k: string]: string | Dict };

/**
 * An area's own strings (en, ch, de), added when its pages load so they stay out of the first load.
 * Keys live under the area's namespace key, e.g. t('rates.title').
 */
export function registerTranslations(area: string, dicts: Record<Language, Dict>): void {
  for (const [lang, dict] of Object.entries(dicts))
    i18next.addResourceBundle(lang, 'translation', { [area]: dict }, true, false);
}
