import rosetta from "rosetta";
import reasonsEn from "../../texts/reasons.en.ts";
import reasonsRu from "../../texts/reasons.ru.json" with { type: "json" };
import type { TFunction } from "../../web/src/i18n/i18n.tsx";
import en from "../../web/src/i18n/en.json" with { type: "json" };
import ru from "../../web/src/i18n/ru.json" with { type: "json" };

/** Each language's words as the interface loads them: its own, and the reasons it shares with the mail. */
export const DICTIONARIES: Record<"en" | "ru", Record<string, string>> = {
  en: { ...en, ...reasonsEn },
  ru: { ...ru, ...reasonsRu },
};

/** The interface's lookup (web/src/i18n/i18n.tsx) over one dictionary: a missing key shows the key. */
export function translator(dictionary: Record<string, string>): TFunction {
  const i18n = rosetta<Record<string, string>>({ dictionary });
  return (key, params) => i18n.t([key], params, "dictionary") || key;
}
