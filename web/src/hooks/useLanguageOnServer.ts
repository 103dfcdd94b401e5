import { useEffect } from "react";
import { apiFetch } from "../api/fetcher.ts";
import { useLanguage } from "../i18n/i18n.tsx";

/**
 * The signed-in person's language, told to the server on each visit and each change, so the
 * mails they get (reviews, failures, the weekly summary) are in it, whatever their project's.
 */
export function useLanguageOnServer() {
  const { language } = useLanguage();
  useEffect(() => {
    void apiFetch("/api/auth/language", { method: "PUT", body: { language } }).catch(() => {});
  }, [language]);
}
