/*
 * One post's text from the AI, in the project's voice and at about `length` characters:
 * the model's Markdown becomes Telegram text plus entities. Shared by the drafts' text
 * generation and autopilot. A failure is answered as its message (the caller records it);
 * a shutdown rethrows, so the job runs again on restart. `tokens` is what the call used,
 * for the caller to count against the owner's day.
 */
import type { JobHelpers } from "graphile-worker";
import type { MessageEntity } from "../api/contract/entities.ts";
import { POST_CONTENT_MAX } from "../api/contract/limits.ts";
import { type Ai, aiError } from "../core/ai/client.ts";
import { formattedPost } from "../core/ai/markdown.ts";
import { postPrompt, type ProjectVoice, tokensFor } from "../core/ai/prompts.ts";
import { causeOf } from "../core/errors.ts";

export type WrittenPost = { text: string | null; entities: MessageEntity[]; error: string | null; tokens: number };

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
    return { text: null, entities: [], error: failure.message, tokens };
  }
}
