/*
 * Control characters in what a request carries. U+0000 cannot be stored in PostgreSQL's
 * text or jsonb at all (an invite link named with it answered 500 after Telegram had made
 * the link), and the other C0 controls (bell, escape, backspace …) belong to no name, title,
 * post or comment: Telegram drops them or shows them as boxes. Tab, line feed and carriage
 * return are text. api/validate.ts refuses every JSON body holding one, before any rule runs
 * or Telegram is called; forms and queries that are not JSON check their fields with
 * `withoutControlCharacters`.
 */
import * as v from "valibot";

export const CONTROL_CHARACTER = "text.controlCharacter";

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const hasControlCharacter = (text: string) => CONTROL.test(text);

/** A valibot check for one text field. */
export const withoutControlCharacters = () => v.check((text: string) => !hasControlCharacter(text), CONTROL_CHARACTER);

/** Whether any string of a JSON value (keys included, at any depth) holds a control character. */
export function holdsControlCharacter(value: unknown): boolean {
  if (typeof value === "string") return hasControlCharacter(value);
  if (Array.isArray(value)) return value.some(holdsControlCharacter);
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).some(([key, item]) => hasControlCharacter(key) || holdsControlCharacter(item));
  }
  return false;
}
