import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import rosetta from "rosetta";
import { DEFAULT_LANGUAGE, LANGUAGES } from "../../../api/contract/limits.ts";
import en from "./en.json";
import ru from "./ru.json";

export type Language = (typeof LANGUAGES)[number];
export type TranslationKey = keyof typeof ru;
export type TranslationParams = Record<string, string | number>;

// Both dictionaries must carry the same keys: tsc fails here when one of them lacks a key.
const enIsComplete: Record<TranslationKey, string> = en;
const ruIsComplete: Record<keyof typeof en, string> = ru;

const i18n = rosetta<Record<string, string>>({ ru: ruIsComplete, en: enIsComplete });

/** The interface language lives in this browser only (spec §2 Settings). */
export const LANGUAGE_STORAGE_KEY = "pressa.language";

function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

function readStoredLanguage(): Language {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/**
 * Keys are flat ("auth.title", "404.message"), so lookups pass the key as a one-element path:
 * rosetta would otherwise split it on dots. A key with no text shows the key itself.
 */
function translate(language: Language, key: string, params?: TranslationParams): string {
  return i18n.t([key], params, language) || key;
}

type I18nContextValue = {
  language: Language;
  setLanguage: (language: Language) => void;
};

const I18nContext = createContext<I18nContextValue>({
  language: DEFAULT_LANGUAGE,
  setLanguage: () => {},
});

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(readStoredLanguage);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const setLanguage = useCallback((next: Language) => {
    try {
      window.localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
    } catch {
      // Private mode may refuse storage; the choice still applies to this visit.
    }
    setLanguageState(next);
  }, []);

  const value = useMemo(() => ({ language, setLanguage }), [language, setLanguage]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useLanguage(): I18nContextValue {
  return useContext(I18nContext);
}

export type TFunction = (key: TranslationKey, params?: TranslationParams) => string;

/** `t()` for the current interface language; components re-render when it changes. */
export function useT(): TFunction {
  const { language } = useLanguage();
  return useCallback((key, params) => translate(language, key, params), [language]);
}

