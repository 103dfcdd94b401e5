/*
 * One post's text from the AI, in the project's voice and at about `length` characters:
 * the model's Markdown becomes Telegram text plus entities. Shared by the drafts' text
 * generation and autopilot. A failure is answered as its error code (the caller records it);
 * a shutdown rethrows, so the job runs again on restart.
 *
 * Each post is one call on the owner's AI day: its bound is reserved first, and once the
 * owner's day or the service's (every account together) is spent the post is not written and
 * the reason is answered; the tokens it used are counted as it ends.
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

export type WrittenPost = { text: string | null; entities: MessageEntity[]; error: ErrorCode | null };

/** Whose AI day a job's post is written on, and that day's caps. */
export type AiDay = { sql: Sql; userId: number; limits: Pick<Limits, "aiDailyTokens" | "aiDailyTokensTotal"> };

export async function writePost(
  ai: Ai,
  day: AiDay,
  voice: ProjectVoice,
  title: string,
  length: number,
  helpers: Pick<JobHelpers, "abortSignal" | "logger">,
  /** Names the post in the log, e.g. "draft 12". */
  label: string,
): Promise<WrittenPost> {
  const messages = postPrompt(voice, title, length);
  const maxTokens = tokensFor(length);
  const reserved = await reserveAiTokens(day, promptTokens(messages) + maxTokens);
  if ("spent" in reserved) return { text: null, entities: [], error: reserved.spent };
  let tokens = 0;
  try {
    const answer = await ai.complete(messages, { maxTokens, signal: helpers.abortSignal, onUsage: (used) => void (tokens = used) });
    return { ...formattedPost(answer, POST_CONTENT_MAX), error: null };
  } catch (err) {
    if (helpers.abortSignal?.aborted) throw err;
    const failure = aiError(err);
    const cause = causeOf(failure);
    if (cause) helpers.logger.warn(`${label}: ${failure.message}`, { code: failure.code, cause });
    return { text: null, entities: [], error: failure.code };
  } finally {
    // the tokens first, then the reservation: the day never looks less spent than it is. A
    // crash in between leaves the reservation to lapse (10 minutes), never the tokens uncounted.
    if (tokens > 0) await day.sql`select app_public.record_ai_tokens(${day.userId}, ${tokens})`;
    await day.sql`select app_public.settle_ai_call(${reserved.reservation})`;
  }
}

/** A prompt's size in tokens at 4 characters a token: what the reservation holds for it. */
function promptTokens(messages: { content: string }[]) {
  return Math.ceil(messages.reduce((chars, m) => chars + m.content.length, 0) / 4);
}

/**
 * The call's bound of tokens held back from the owner's day and the service's
 * (app_private.reserve_ai_tokens), or the code of the day that is spent: so the worker's AI
 * slots, writing for several accounts at once, cannot pass a cap together.
 */
async function reserveAiTokens(day: AiDay, tokens: number): Promise<{ reservation: number } | { spent: ErrorCode }> {
  try {
    const [{ reservation }] = await day.sql<{ reservation: number }[]>`
      select app_private.reserve_ai_tokens(${day.userId}, ${day.limits.aiDailyTokens}, ${day.limits.aiDailyTokensTotal}, ${tokens}) as reservation`;
    return { reservation };
  } catch (err) {
    const spent = (err as { code?: string; hint?: string }).code === "AILIM" ? (err as { hint?: string }).hint : undefined;
    if (spent === "ai.dailyBudgetSpent" || spent === "ai.globalDailyLimit") return { spent };
    throw err;
  }
}
