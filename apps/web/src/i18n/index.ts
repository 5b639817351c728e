import {
  DEFAULT_LANGUAGE,
  format,
  isLanguage,
  MESSAGE_KEYS,
  messagesFor,
  type Language,
  type MessageKey,
} from '@tandem/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { KEYS, store } from '../lib/storage';
import { en } from './en';

/** The language chosen in the user menu, remembered in the browser (spec 01: "languages"). */
export function storedLanguage(): Language {
  const v = store.get(KEYS.language);
  return isLanguage(v) ? v : DEFAULT_LANGUAGE;
}

// English ships with the app; ch and de load when chosen. Server messages (validation, rules) come
// from the contract's catalogue under "server.".
async function bundle(lang: Language) {
  const dict = lang === 'en' ? en : lang === 'de' ? (await import('./de')).de : (await import('./ch')).ch;
  return { ...dict, server: messagesFor(lang) };
}

// Base bundles loaded so far. Not `hasResourceBundle`: an area's strings (registerTranslations) may
// be added for every language before its base bundle is loaded, and would hide that it is missing.
const loaded = new Set<Language>(['en']);
async function ensure(lang: Language) {
  if (loaded.has(lang)) return;
  // deep merge, area strings already added kept
  i18next.addResourceBundle(lang, 'translation', await bundle(lang), true, false);
  loaded.add(lang);
}

export async function initI18n(): Promise<void> {
  const lang = storedLanguage();
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: await bundle('en') } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    // Keys are dotted paths; ':' appears in texts ("HH:mm"), never as a namespace separator.
    nsSeparator: false,
  });
  if (lang !== 'en') await setLanguage(lang);
}

export async function setLanguage(lang: Language): Promise<void> {
  store.set(KEYS.language, lang);
  await ensure(lang);
  await i18next.changeLanguage(lang);
  document.documentElement.lang = lang === 'ch' ? 'zh' : lang;
}

/**
 * A message of the contract's catalogue (the server's wording) in the current language, with its
 * {0}/{1} placeholders filled. Unknown keys come back as they are (plain text from a schema).
 */
export function serverMessage(key: string, params: readonly (string | number)[] = []): string {
  if (!(MESSAGE_KEYS as string[]).includes(key)) return key;
  return format(i18next.t(`server.${key as MessageKey}`), params);
}

export { i18next };
