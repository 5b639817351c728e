/**
 * Number handling on a trunk: tech prefix, digit replacement, digit manipulation.
 *
 * Order on an ingress trunk: the tech prefix is stripped from the DNIS, then digit replacement,
 * then digit manipulation. On an egress trunk: digit replacement, digit manipulation, then the
 * egress tech prefix is put in front of the DNIS sent to the vendor.
 *
 * Digit replacement (one rule per number): among the rules of a number (ANI or DNIS) whose
 * prefix starts the number and whose length bounds hold (min_length <= length <= max_length,
 * null = unbounded), the one with the longest prefix (first listed on a tie) replaces that
 * prefix with its replacement digits. "Strip 011" is { prefix: '011', replacement: '' }.
 *
 * Digit manipulation (every rule, in order, each on the result of the previous one): a rule
 * applies when the number starts with its prefix (empty = any) and its length condition holds
 * (more / less / equal than number_length; none = always). Then:
 *   - add_prefix: digits + number;
 *   - remove_prefix: drop the first remove_count characters (default: the prefix's length);
 *   - replace_prefix: drop them as remove_prefix does, then put digits in front.
 */

export type NumberField = 'ani' | 'dnis';

export interface DigitReplacementRule {
  readonly field: NumberField;
  readonly prefix: string;
  readonly min_length?: number | null;
  readonly max_length?: number | null;
  readonly replacement: string;
}

export type DigitManipulationAction = 'add_prefix' | 'remove_prefix' | 'replace_prefix';
export type LengthCondition = 'more' | 'less' | 'equal';

export interface DigitManipulationRule {
  readonly field: NumberField;
  readonly action: DigitManipulationAction;
  readonly prefix?: string | null;
  readonly length_condition?: LengthCondition | null;
  readonly number_length?: number | null;
  readonly remove_count?: number | null;
  readonly digits?: string | null;
}

/** The rules of one number (ANI or DNIS) of one trunk, ready to apply. */
export interface NumberRewrite {
  readonly replacements: readonly DigitReplacementRule[];
  readonly manipulations: readonly DigitManipulationRule[];
}

export interface TrunkNumberRules {
  readonly ani: NumberRewrite | null;
  readonly dnis: NumberRewrite | null;
}

/** The DNIS without the tech prefix, or null when the DNIS does not start with it. */
export function stripTechPrefix(dnis: string, techPrefix: string): string | null {
  if (techPrefix === '') return dnis;
  return dnis.startsWith(techPrefix) ? dnis.slice(techPrefix.length) : null;
}

export function applyDigitReplacement(number: string, rules: readonly DigitReplacementRule[]): string {
  let best: DigitReplacementRule | undefined;
  for (const rule of rules) {
    if (!number.startsWith(rule.prefix)) continue;
    if (rule.min_length != null && number.length < rule.min_length) continue;
    if (rule.max_length != null && number.length > rule.max_length) continue;
    if (!best || rule.prefix.length > best.prefix.length) best = rule;
  }
  return best ? best.replacement + number.slice(best.prefix.length) : number;
}

function lengthHolds(rule: DigitManipulationRule, length: number): boolean {
  if (rule.length_condition == null || rule.number_length == null) return true;
  switch (rule.length_condition) {
    case 'more':
      return length > rule.number_length;
    case 'less':
      return length < rule.number_length;
    case 'equal':
      return length === rule.number_length;
  }
}

export function applyDigitManipulation(number: string, rules: readonly DigitManipulationRule[]): string {
  let result = number;
  for (const rule of rules) {
    const prefix = rule.prefix ?? '';
    if (!result.startsWith(prefix) || !lengthHolds(rule, result.length)) continue;
    const digits = rule.digits ?? '';
    const removed = rule.remove_count ?? prefix.length;
    if (rule.action === 'add_prefix') result = digits + result;
    else if (rule.action === 'remove_prefix') result = result.slice(removed);
    else result = digits + result.slice(removed);
  }
  return result;
}

/** Digit replacement then digit manipulation; returns the number itself when there are no rules. */
export function rewriteNumber(number: string, rewrite: NumberRewrite | null): string {
  if (rewrite === null) return number;
  return applyDigitManipulation(applyDigitReplacement(number, rewrite.replacements), rewrite.manipulations);
}

/** Splits a trunk's rules by number; a number without rules gets null (nothing to do per call). */
export function compileNumberRules(
  replacements: readonly DigitReplacementRule[] = [],
  manipulations: readonly DigitManipulationRule[] = [],
): TrunkNumberRules {
  const forField = (field: NumberField): NumberRewrite | null => {
    const r = replacements.filter((rule) => rule.field === field);
    const m = manipulations.filter((rule) => rule.field === field);
    return r.length === 0 && m.length === 0 ? null : { replacements: r, manipulations: m };
  };
  return { ani: forField('ani'), dnis: forField('dnis') };
}
