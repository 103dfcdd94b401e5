/**
 * What a number field holds (Mantine gives a number, or text while it is being typed or
 * emptied) as a whole number within the range: empty or unreadable is the default.
 */
export function clampInput(value: number | string, range: { min: number; max: number; default: number }): number {
  const number = typeof value === "number" ? value : Number.parseInt(value, 10);
  if (!Number.isFinite(number)) return range.default;
  return Math.min(range.max, Math.max(range.min, Math.round(number)));
}
