/*
 * Fills the content of the drafts of a generation job, one draft after another, recording
 * each draft (and the job's progress) as soon as it is written. A restarted job starts
 * with the drafts still to do (app_public.start_generation_job), so finished drafts are
 * never generated twice. A draft the AI fails on is recorded as failed and the job goes
 * on; the job is completed if any draft got content, failed if none did. A failure is recorded
 * as its error code, which the API words for its clients and the SPA in its language.
 *
 * Every draft's tokens count against the project owner's day (AI_DAILY_TOKENS) and the
 * service's (AI_DAILY_TOKENS_TOTAL); once either is spent, the drafts still to do are
 * recorded as failed with that reason, unasked. The job runs in its owner's AI queue
 * (app_private.ai_queue), one of the account's AI jobs at a time.
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { ErrorCode } from "../contract/error_codes.ts";
import type { Ai } from "../core/ai/client.ts";
import type { Limits } from "../core/config.ts";
import type { Sql } from "../core/db.ts";
import { withExamples } from "../core/ai/examples.ts";
import type { ProjectVoice } from "../core/ai/prompts.ts";
import { writePost } from "./write_post.ts";

const Payload = v.object({ jobId: v.number() });

export function generateContent(sql: Sql, ai: Ai | undefined, limits: Pick<Limits, "aiDailyTokens" | "aiDailyTokensTotal">): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("drafts__generate_content: malformed payload, dropped");
    const { jobId } = parsed.output;
    if (!ai) {
      await sql`select app_public.fail_generation_job(${jobId}, ${"ai.notConfigured" satisfies ErrorCode})`;
      return;
    }
    const todo = await sql<{ draftId: number; title: string; postLength: number; projectId: number }[]>`
      select * from app_public.start_generation_job(${jobId})`;
    if (todo.length > 0) {
      const [project] = await sql<(ProjectVoice & { userId: number })[]>`
        select user_id, name, description, sources, writing_style, language from app_public.projects where id = ${todo[0].projectId}`;
      const voice: ProjectVoice = await withExamples(sql, project.userId, todo[0].projectId, project);
      for (const draft of todo) {
        // shutting down rethrows: the drafts still to do resume on restart
        const { text: content, entities, error } = await writePost(
          ai, { sql, userId: project.userId, limits }, voice, draft.title, draft.postLength, helpers, `draft ${draft.draftId}`);
        await sql`select app_public.record_draft_generation(${jobId}, ${draft.draftId}, ${content}, ${error}, ${sql.json(entities)})`;
      }
    }
    await sql`select app_public.finish_generation_job(${jobId})`;
  };
}
