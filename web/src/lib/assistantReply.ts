/*
 * The assistant answers in Telegram-friendly Markdown (core/ai/prompts.ts), and what the
 * person sees, copies, works on or saves as a draft is that reply as Telegram text plus
 * entities: never a raw `**`.
 *
 * Where the Markdown becomes text and entities: here, in the browser, with the very module
 * the server uses for AI posts (contract/markdown.ts), so there is one converter. Not on the
 * server, because the reply streams: each partial reply is shown formatted as it grows (an
 * unpaired `**` of a half-written bold is dropped, then the bold appears when it closes),
 * which a server-side conversion could only match by resending the whole converted reply
 * with every piece. The stored conversation stays what the model wrote, so the model reads
 * its own earlier replies in the form it writes them, and the API is unchanged.
 *
 * The cost is markdown-it in the assistant page's lazy chunk: about 45 kB gzipped (the
 * chunk grew to 60 kB); the initial load (tests/web/budget.test.ts) does not include it.
 *
 * Replies stored before the chat wrote Markdown were asked for as plain text. Read as
 * Markdown they come out the same: the converter keeps the source's lines and blank lines,
 * lists keep their numbers ("-" becomes "•"), and a stray "**" a model slipped into a plain
 * reply goes, as it should (tests/format/assistant_reply.test.ts).
 */
import { markdownToEntities } from "../../../contract/markdown.ts";
import type { FormattedText } from "./postDocument.ts";

export function assistantReply(markdown: string): FormattedText {
  return markdownToEntities(markdown);
}
