/*
 * Autopilot: a post whose draft has no text gets AI text of its slot's length in the
 * project's voice before it goes to the approver; without it (AI unavailable, budget spent)
 * it goes as its draft is, saying why (posts.error.autopilotNoAi).
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Ai } from "../core/ai/client.ts";
import { withExamples } from "../core/ai/examples.ts";
import type { ProjectVoice } from "../core/ai/prompts.ts";
import type { Limits } from "../core/config.ts";
import type { Sql } from "../core/db.ts";
import { type WrittenPost, writePost } from "./write_post.ts";

const ContentPayload = v.object({ postId: v.number(), postLength: v.number() });

export function writeAutopilotPost(sql: Sql, ai: Ai | undefined, limits: Pick<Limits, "aiDailyTokens" | "aiDailyTokensTotal">): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(ContentPayload, payload);
    if (!parsed.success) return helpers.logger.error("posts__autopilot_content: malformed payload, dropped");
    const { postId, postLength } = parsed.output;
    const [post] = await sql<(ProjectVoice & { userId: number; projectId: number; title: string })[]>`
      select * from app_public.autopilot_post_to_write(${postId})`;
    if (!post) return; // written, edited or removed meanwhile: nothing to do
    let written: WrittenPost = { text: null, entities: [], error: "ai.notConfigured" };
    if (ai) {
      // shutting down rethrows: the job runs again on restart
      const voice = await withExamples(sql, post.userId, post.projectId, post);
      written = await writePost(ai, { sql, userId: post.userId, limits }, voice, post.title, postLength, helpers, `autopilot post ${postId}`);
    }
    // without text the post carries the AI's error code (posts.error.autopilotNoAi)
    await sql`select id from app_public.record_autopilot_content(${postId}, ${written.text}, ${sql.json(written.entities)}, ${written.error})`;
  };
}
