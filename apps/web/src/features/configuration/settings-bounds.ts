/**
 * The bounds of a whole-number setting, read from its contract schema (the rule the server applies),
 * for an InputNumber's min and max.
 */
export function numberBounds(schema: unknown): { min?: number; max?: number } {
  const s = schema as { minValue?: number | null; maxValue?: number | null };
  return { min: s.minValue ?? undefined, max: s.maxValue ?? undefined };
}
