/*
 * A post's options as they are checked and saved (docs/post-format.md, issue 16 §5): the
 * URL buttons' problems, and what is sent once blanks and defaults are left out. The option
 * fields (components/PostOptionsFields) draw them; the draft, schedule and edit forms send
 * what these return.
 */
import { isAllowedLink, isUnsafeLink } from "../../../contract/entities.ts";
import { BUTTON_TEXT_MAX, type PostOptions, type UrlButton } from "../../../contract/post_options.ts";

/** A button's problems as error codes (contract/post_options.ts); a blank button is dropped on save. */
export function buttonErrors(button: UrlButton): { text?: string; url?: string } {
  const text = button.text.trim();
  const url = button.url.trim();
  if (text === "" && url === "") return {};
  return {
    text: text === "" || text.length > BUTTON_TEXT_MAX ? "posts.buttonTextInvalid" : undefined,
    url: isUnsafeLink(url) ? "posts.unsafeLink" : isAllowedLink(url) ? undefined : "posts.buttonUrlInvalid",
  };
}

export const hasButtonErrors = (rows: readonly UrlButton[][] | undefined) =>
  (rows ?? []).some((row) => row.some((button) => Object.values(buttonErrors(button)).some(Boolean)));

/** The rows as saved: blank buttons and empty rows left out, the rest trimmed. */
export const cleanButtons = (rows: readonly UrlButton[][] | undefined): UrlButton[][] =>
  (rows ?? [])
    .map((row) =>
      row.filter((button) => button.text.trim() !== "" || button.url.trim() !== "").map((button) => ({
        text: button.text.trim(),
        url: button.url.trim(),
      }))
    )
    .filter((row) => row.length > 0);

export const hasOptionErrors = (options: PostOptions) => hasButtonErrors(options.buttons);

/** What is saved: only what differs from a plain post, blank buttons and empty rows left out. */
export function cleanOptions(options: PostOptions): PostOptions {
  const clean: PostOptions = {};
  if (options.silent) clean.silent = true;
  if (options.pin) {
    clean.pin = true;
    if (options.unpinAfterHours) clean.unpinAfterHours = options.unpinAfterHours;
  }
  if (options.linkPreview && options.linkPreview !== "off") clean.linkPreview = options.linkPreview;
  const rows = cleanButtons(options.buttons);
  if (rows.length > 0) clean.buttons = rows;
  return clean;
}

/** Whether two sets of options send the same post (key order and blank buttons aside). */
export const sameOptions = (a: PostOptions, b: PostOptions) => JSON.stringify(cleanOptions(a)) === JSON.stringify(cleanOptions(b));
