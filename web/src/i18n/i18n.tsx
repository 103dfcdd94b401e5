import { Center, Loader } from "@mantine/core";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import rosetta from "rosetta";
import { DEFAULT_LANGUAGE, LANGUAGES } from "../../../contract/limits.ts";
// Types only: each dictionary is its own chunk, and a visit loads just the language it shows.
import type reasonsEn from "../../../texts/reasons.en.ts";
import type reasonsRu from "../../../texts/reasons.ru.json";
import type en from "./en.json";
import type ru from "./ru.json";

export type Language = (typeof LANGUAGES)[number];
/** The interface's words, and a post's reasons shared with the server's mail (texts/reasons.*.json). */
export type TranslationKey = keyof typeof ru | keyof typeof reasonsRu;
export type TranslationParams = Record<string, string | number>;

type Dictionary = Record<string, string>;

// Both dictionaries must carry the same keys: tsc fails here when one of them lacks a key.
const loaders: Record<Language, () => Promise<Dictionary>> = {
  ru: () =>
    Promise.all([import("./ru.json"), import("../../../texts/reasons.ru.json")]).then(
      ([{ default: words }, { default: reasons }]): Record<keyof typeof en | keyof typeof reasonsEn, string> => ({ ...words, ...reasons }),
    ),
  en: () =>
    Promise.all([import("./en.json"), import("../../../texts/reasons.en.ts")]).then(
      ([{ default: words }, { default: reasons }]): Record<TranslationKey, string> => ({ ...words, ...reasons }),
    ),
};

const i18n = rosetta<Dictionary>();
const loaded = new Set<Language>();
const loading = new Map<Language, Promise<void>>();

/** Fetches a language's dictionary once; a failed fetch may be tried again. */
export function loadDictionary(language: Language): Promise<void> {
  let pending = loading.get(language);
  if (!pending) {
    pending = loaders[language]().then(
      (dictionary) => {
        i18n.set(language, dictionary);
        loaded.add(language);
      },
      (error: unknown) => {
        loading.delete(language);
        throw error;
      },
    );
    loading.set(language, pending);
  }
  return pending;
}

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

// The stored language's dictionary is requested as soon as the app's code runs, alongside
// the session check, rather than after the first render.
const initialLanguage = readStoredLanguage();
const initialDictionary = loadDictionary(initialLanguage).catch(() => {});

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

/**
 * Renders the app once the interface language's dictionary is there (a spinner until then, so
 * no raw keys flash on the first paint). Another language is shown once its dictionary loads.
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  const [ready, setReady] = useState(() => loaded.has(initialLanguage));
  // The latest choice wins when two dictionaries arrive out of order.
  const requested = useRef<Language>(initialLanguage);

  useEffect(() => {
    // Should the dictionary fail to load, the interface still comes up, showing keys.
    if (!ready) void initialDictionary.then(() => setReady(true));
  }, [ready]);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const setLanguage = useCallback((next: Language) => {
    requested.current = next;
    if (loaded.has(next)) {
      remember(next);
      setLanguageState(next);
      return;
    }
    // Until it loads the current language stays; if it cannot load, nothing changes.
    loadDictionary(next).then(
      () => {
        if (requested.current !== next) return;
        remember(next);
        setLanguageState(next);
      },
      () => {},
    );
  }, []);

  const value = useMemo(() => ({ language, setLanguage }), [language, setLanguage]);
  if (!ready) {
    return (
      <Center mih="100dvh">
        <Loader size="md" />
      </Center>
    );
  }
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

function remember(language: Language) {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode may refuse storage; the choice still applies to this visit.
  }
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
