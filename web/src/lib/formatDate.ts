import type { Language } from "../i18n/i18n.tsx";

/** The Intl locale of each interface language. */
export const LOCALES: Record<Language, string> = { ru: "ru-RU", en: "en-GB" };

/** A calendar date in the interface language, e.g. "3 мар. 2025 г." / "3 Mar 2025". */
export function formatDate(value: string | number | Date, language: Language): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(LOCALES[language], { day: "numeric", month: "short", year: "numeric" }).format(date);
}

/** A date and time in the interface language and the viewer's time zone, e.g. "3 Mar 2025, 14:05". */
export function formatMoment(value: string | number | Date, language: Language): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(LOCALES[language], { dateStyle: "medium", timeStyle: "short" }).format(date);
}

const pad = (value: number) => String(value).padStart(2, "0");

/** Spec §2 admin tables: dd.MM.yyyy HH:mm in the viewer's own time zone, whatever the language. */
export function formatAdminDateTime(value: string | number | Date): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
