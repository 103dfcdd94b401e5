/*
 * Autopilot: the content plan's slots fill the calendar from the drafts queue (the rules
 * live in app_public.autopilot_fill), and a post whose draft has no text gets AI text of
 * its slot's length in the project's voice before it goes to the approver.
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import { type Ai, AI_NOT_CONFIGURED, aiError } from "../core/ai/client.ts";
import { formattedPost } from "../core/ai/markdown.ts";
import { postPrompt, type ProjectVoice, tokensFor } from "../core/ai/prompts.ts";
import type { Limits } from "../core/config.ts";
import type { Sql } from "../core/db.ts";
import { causeOf } from "../core/errors.ts";
import type { MessageEntity } from "../api/contract/entities.ts";
import { POST_CONTENT_MAX } from "../api/contract/limits.ts";
import { DAILY_BUDGET_SPENT } from "./drafts__generate_content.ts";

/** The note an autopilot post carries when it goes to approval without AI text. */
export const noAiNote = (reason: string) => `The AI could not write this post (${reason}); it keeps its draft as it is`;

const FillPayload = v.object({ projectId: v.number() });

export const fillPlan = (sql: Sql): Task => async (payload, helpers) => {
  const parsed = v.safeParse(FillPayload, payload);
  if (!parsed.success) return helpers.logger.error("content_plans__fill: malformed payload, dropped");
  await sql`select id from app_public.autopilot_fill(${parsed.output.projectId})`;
};

/** Hourly: one fill job per project with an active slot. */
export const fillAllPlans = (sql: Sql): Task => async () => {
  await sql`select app_public.queue_autopilot_fills()`;
};

const ContentPayload = v.object({ postId: v.number(), postLength: v.number() });

export function writeAutopilotPost(sql: Sql, ai: Ai | undefined, limits: Pick<Limits, "aiDailyTokens">): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(ContentPayload, payload);
    if (!parsed.success) return helpers.logger.error("posts__autopilot_content: malformed payload, dropped");
    const { postId, postLength } = parsed.output;
    const [post] = await sql<(ProjectVoice & { userId: number; title: string })[]>`
      select * from app_public.autopilot_post_to_write(${postId})`;
    if (!post) return; // written, edited or removed meanwhile: nothing to do
    let note: string | null = null;
    let text: string | null = null;
    let entities: MessageEntity[] = [];
    const [budget] = await sql<{ spent: boolean }[]>`select app_public.ai_budget_spent(${post.userId}, ${limits.aiDailyTokens}) as spent`;
    if (!ai) note = noAiNote(AI_NOT_CONFIGURED);
    else if (budget.spent) note = noAiNote(DAILY_BUDGET_SPENT);
    else {
      let tokens = 0;
      try {
        const answer = await ai.complete(postPrompt(post, post.title, postLength), {
          maxTokens: tokensFor(postLength),
          signal: helpers.abortSignal,
          onUsage: (used) => void (tokens = used),
        });
        ({ text, entities } = formattedPost(answer, POST_CONTENT_MAX));
      } catch (err) {
        if (helpers.abortSignal?.aborted) throw err; // shutting down: the job runs again on restart
        const failure = aiError(err);
        const cause = causeOf(failure);
        if (cause) helpers.logger.warn(`autopilot post ${postId}: ${failure.message}`, { code: failure.code, cause });
        note = noAiNote(failure.message);
      }
      if (tokens > 0) await sql`select app_public.record_ai_tokens(${post.userId}, ${tokens})`;
    }
    await sql`select id from app_public.record_autopilot_content(${postId}, ${text}, ${sql.json(entities)}, ${note})`;
  };
}
