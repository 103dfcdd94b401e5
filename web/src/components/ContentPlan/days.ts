import type { TFunction } from "../../i18n/i18n.tsx";
import { weekdayNames } from "../../lib/projectTime.ts";

/** Monday to Sunday as the API counts them (0 is Sunday, as JavaScript's Date does). */
export const WEEK_DAYS = [1, 2, 3, 4, 5, 6, 0] as const;

/** A day's short and long names in `locale`, by the API's day number. */
export function dayNames(locale: string) {
  const short = weekdayNames(locale);
  const long = weekdayNames(locale, "long");
  return (day: number) => ({ short: short[(day + 6) % 7], long: long[(day + 6) % 7] });
}

/** "1 500 симв." / "1,500 chars". */
export function lengthText(t: TFunction, length: number, locale: string) {
  return t("schedule.plan.length", { count: new Intl.NumberFormat(locale).format(length) });
}
