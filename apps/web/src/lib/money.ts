import i18next from 'i18next';

/**
 * The one money formatter of the web app: exact (the amount's decimal text is rounded half up with
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
