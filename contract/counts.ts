/*
 * Counts as people read them, shared by the SPA and the mail. A module of its own, without
 * valibot, so the home screen's first load does not carry the schemas of contract/stats.ts.
 */

/**
 * A change in a count as the Statistics page, the home cards and the weekly mail write it:
 * "+5", "−3" (a minus sign, not a hyphen, so it reads as one) or "0"; `format` writes the
 * figure in the reader's locale ("+1 234", "+1,234").
 */
export const signedCount = (change: number, format: (n: number) => string): string =>
  change > 0 ? `+${format(change)}` : change < 0 ? `−${format(-change)}` : "0";
