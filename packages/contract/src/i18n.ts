/** Languages of the portal (spec 01 section 9). */
export const LANGUAGES = ['en', 'ch', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const isLanguage = (v: unknown): v is Language =>
  typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);

/** Picks the language from an Accept-Language style header ("de", "de-DE,en;q=0.8", "zh" maps to ch). */
export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    const base = tag.split('-')[0] ?? '';
    if (base === 'zh' || base === 'ch') return 'ch';
    if (base === 'de') return 'de';
    if (base === 'en') return 'en';
  }
  return DEFAULT_LANGUAGE;
}

/** Replaces {0}, {1} or {name} placeholders. */
export function format(
  template: string,
  params: Record<string, string | number> | readonly (string | number)[] = {},
): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => {
    const v: string | number | undefined = Array.isArray(params)
      ? (params as readonly (string | number)[])[Number(k)]
      : (params as Record<string, string | number>)[k];
    return v === undefined ? m : String(v);
  });
}
