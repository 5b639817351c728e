import i18next from 'i18next';

/**
 * The one money and number formatter of the web app: exact (the amount's decimal text is rounded half up with
 * bigint arithmetic, never through a float), with thousands separators and the declared decimals in
 * the user's language, and the currency code placed as that language writes it:
 * en "USD 1,250.50", ch "USD 1,250.50", de "1.250,50 USD". CSV exports keep plain numbers (they do not
 * use this).
 */
export interface MoneyOptions {
  /** ISO code shown with the amount; omitted when null or empty. */
  currency?: string | null;
  /** Decimals shown (rounded half up); default 2. */
  decimals?: number;
  /** Language; default the current one. */
  lang?: string;
  /** Show a + before positive amounts (differences). */
  signed?: boolean;
}

const SEPARATORS: Record<string, { group: string; decimal: string; currencyAfter: boolean }> = {
  en: { group: ',', decimal: '.', currencyAfter: false },
  ch: { group: ',', decimal: '.', currencyAfter: false },
  de: { group: '.', decimal: ',', currencyAfter: true },
};

/** Rounds a decimal text to `decimals` places, half up (away from zero), exactly. */
export function roundDecimalText(
  text: string,
  decimals: number,
): { negative: boolean; whole: string; fraction: string } | null {
  const m = /^\s*([+-])?(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (!m || (!m[2] && !m[3])) return null;
  const negative = m[1] === '-';
  const whole = m[2] || '0';
  const frac = m[3] ?? '';
  const scaled = BigInt(whole + frac.padEnd(decimals, '0').slice(0, decimals));
  const roundUp = frac.length > decimals && Number(frac[decimals]) >= 5;
  const value = (scaled + (roundUp ? 1n : 0n)).toString().padStart(decimals + 1, '0');
  const cut = value.length - decimals;
  const w = value.slice(0, cut);
  const f = value.slice(cut);
  const zero = /^0*$/.test(w + f);
  return { negative: negative && !zero, whole: w, fraction: f };
}

export function formatMoneyText(amount: string | number | null | undefined, opts: MoneyOptions = {}): string {
  if (amount === null || amount === undefined || amount === '') return '–';
  const decimals = opts.decimals ?? 2;
  const lang = opts.lang ?? i18next.language ?? 'en';
  const sep = SEPARATORS[lang] ?? SEPARATORS.en!;
  // Numbers from the API are already exact decimals; String() of a JS number gives its shortest text.
  const r = roundDecimalText(typeof amount === 'number' ? String(amount) : amount, decimals);
  if (!r) return String(amount);
  const grouped = r.whole.replace(/\B(?=(\d{3})+(?!\d))/g, sep.group);
  const sign = r.negative ? '-' : opts.signed && !/^0*$/.test(r.whole + r.fraction) ? '+' : '';
  const number = `${sign}${grouped}${decimals > 0 ? sep.decimal + r.fraction : ''}`;
  if (!opts.currency) return number;
  return sep.currencyAfter ? `${number} ${opts.currency}` : `${opts.currency} ${number}`;
}

/**
 * A number (a count, minutes, a ratio) as the user's language writes it, by the same rules as money
 * without a currency: en/ch "37,730" and "63,735.50", de "37.730" and "63.735,50". Counts by default
 * (no decimals); `decimals` for minutes and ratios. Never `toLocaleString` (the browser's language,
 * not the user's) nor antd Statistic's own grouping (always ","): see components/Figure.tsx.
 */
export function formatNumberText(
  value: string | number | null | undefined,
  opts: { decimals?: number; lang?: string; signed?: boolean; trimZeros?: boolean } = {},
): string {
  const text = formatMoneyText(value, { decimals: opts.decimals ?? 0, lang: opts.lang, signed: opts.signed });
  if (!opts.trimZeros) return text;
  const decimal = (SEPARATORS[opts.lang ?? i18next.language ?? 'en'] ?? SEPARATORS.en!).decimal;
  const at = text.lastIndexOf(decimal);
  return at < 0 || !/^\d+$/.test(text.slice(at + 1)) ? text : text.replace(/0+$/, '').replace(/[.,]$/, '');
}

/** A percent held as decimal text ("12.5000"), shown without trailing zeros: en "12.5", de "12,5". */
export const formatPercentText = (value: string | number | null | undefined, lang?: string) =>
  formatNumberText(value, { decimals: 4, lang, trimZeros: true });

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
/**
 * A size in bytes with its unit (steps of 1,024), one decimal from KB up, in the user's language:
 * en "1.5 MB", de "1,5 MB". Empty for no size.
 */
export function formatBytes(bytes: number | null | undefined, lang?: string): string {
  if (bytes === null || bytes === undefined) return '';
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < BYTE_UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${formatNumberText(u === 0 ? v : v.toFixed(1), { decimals: u === 0 ? 0 : 1, lang })} ${BYTE_UNITS[u]}`;
}
