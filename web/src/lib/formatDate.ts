import type { Language } from "../i18n/i18n.tsx";

const LOCALES: Record<Language, string> = { ru: "ru-RU", en: "en-GB" };

/** A calendar date in the interface language, e.g. "3 мар. 2025 г." / "3 Mar 2025". */
export function formatDate(value: string | number | Date, language: Language): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(LOCALES[language], { day: "numeric", month: "short", year: "numeric" }).format(date);
}
