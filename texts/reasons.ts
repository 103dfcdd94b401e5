/*
 * A post's reason (contract/post_reasons.ts: a code with params) in words, per language. The
 * dictionaries are texts/reasons.ru.json and, English being the contract's own words,
 * texts/reasons.en.ts, shared with the web app (its i18n merges
 * them into the interface's words), so the owner's mail and the screen say a reason alike.
 * tests/texts.test.ts keeps the two languages' keys and placeholders equal.
 */
import { errorMessage, isErrorCode } from "../contract/error_codes.ts";
import { postReasonMessage, type PostReasonParams } from "../contract/post_reasons.ts";
import en from "./reasons.en.ts";
import ru from "./reasons.ru.json" with { type: "json" };

export const REASON_TEXTS: Record<"ru" | "en", Record<string, string>> = { ru, en };

/**
 * The reason in `language`. A {reason} that is itself an error code (the AI's failure inside
 * an autopilot reason) is said in its catalogue words; a code without words here (a newer
 * code) reads in the catalogue's English, never as a bare code.
 */
export function reasonWords(language: "ru" | "en", code: string, params: PostReasonParams = {}): string {
  const template = REASON_TEXTS[language][code];
  if (!template) return postReasonMessage(code, params);
  const values: Record<string, unknown> = { ...params };
  if (isErrorCode(params.reason)) values.reason = REASON_TEXTS[language][params.reason] ?? errorMessage(params.reason);
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
