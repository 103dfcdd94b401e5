/*
 * One post's text from the AI, in the project's voice and at about `length` characters:
 * the model's Markdown becomes Telegram text plus entities. Shared by the drafts' text
 * generation and autopilot. A failure is answered as its error code (the caller records it);
 * a shutdown rethrows, so the job runs again on restart. `tokens` is what the call used,
 * for the caller to count against the owner's day.
 *
 * Before each post a job asks spentAiBudget: once the owner's day or the service's day
 * (every account together) is spent, the post is not written and the reason is recorded.
 */
import type { JobHelpers } from "graphile-worker";
import type { MessageEntity } from "../contract/entities.ts";
import type { ErrorCode } from "../contract/error_codes.ts";
import { POST_CONTENT_MAX } from "../contract/limits.ts";
import { type Ai, aiError } from "../core/ai/client.ts";
import { formattedPost } from "../contract/markdown.ts";
import { postPrompt, type ProjectVoice, tokensFor } from "../core/ai/prompts.ts";
import type { Limits } from "../core/config.ts";
import type { Sql } from "../core/db.ts";
import { causeOf } from "../core/errors.ts";

export type WrittenPost = { text: string | null; entities: MessageEntity[]; error: ErrorCode | null; tokens: number };

export async function writePost(
  ai: Ai,
  voice: ProjectVoice,
  title: string,
  length: number,
  helpers: Pick<JobHelpers, "abortSignal" | "logger">,
  /** Names the post in the log, e.g. "draft 12". */
  label: string,
): Promise<WrittenPost> {
  let tokens = 0;
  try {
    const answer = await ai.complete(postPrompt(voice, title, length), {
      maxTokens: tokensFor(length),
      signal: helpers.abortSignal,
      onUsage: (used) => void (tokens = used),
    });
    return { ...formattedPost(answer, POST_CONTENT_MAX), error: null, tokens };
  } catch (err) {
    if (helpers.abortSignal?.aborted) throw err;
    const failure = aiError(err);
    const cause = causeOf(failure);
    if (cause) helpers.logger.warn(`${label}: ${failure.message}`, { code: failure.code, cause });
    return { text: null, entities: [], error: failure.code, tokens };
  }
}

/** The code of the AI day that is spent (the account's or the service's), or null while both last. */
export async function spentAiBudget(sql: Sql, userId: number, limits: Pick<Limits, "aiDailyTokens" | "aiDailyTokensTotal">) {
  const [{ code }] = await sql<{ code: ErrorCode | null }[]>`
    select app_public.spent_ai_budget(${userId}, ${limits.aiDailyTokens}, ${limits.aiDailyTokensTotal}) as code`;
  return code;
}
