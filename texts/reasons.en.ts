/*
 * A post's reasons in English: the contract's messages (contract/post_reasons.ts), the one
 * English wording of each, in the dictionaries' {{placeholder}} form. The bot, the mails, the
 * SPA and API clients read the same sentence.
 */
import { POST_REASON_CODES, type PostReasonCode } from "../contract/post_reasons.ts";

const REASONS_EN = Object.fromEntries(
  Object.entries(POST_REASON_CODES).map(([code, { message }]) => [code, message.replace(/\{(\w+)\}/g, "{{$1}}")]),
) as Record<PostReasonCode, string>;

export default REASONS_EN;
