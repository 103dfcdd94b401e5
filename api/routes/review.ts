/*
 * Review before Telegram (docs/teams.md "Review"): the posts waiting for review, and an editor's
 * or owner's decision on one. The rules (who may decide, the guarded transition, what approval
 * continues with, who is told) are app_public.review_post.
 */
import { Hono } from "hono";
import type { Post } from "../../contract/posts.ts";
import { ReviewSchema } from "../../contract/review.ts";
import { ApiError } from "../../core/errors.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { body, idParam } from "../validate.ts";
import { POST_COLUMNS } from "../post_columns.ts";

export function reviewRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    // the queue, the soonest due first: the review page and its badge
    .get("/review", async (c) => {
      const rows = await sql<Post[]>`
        select ${sql.unsafe(POST_COLUMNS)} from app_public.review_queue(${currentUser(c).id}, ${idParam(c.req.param("projectId"))})`;
      return c.json(rows);
    })
    .post("/:postId/review", body(ReviewSchema), async (c) => {
      const { decision, comment } = c.req.valid("json");
      const [row] = await sql<Post[]>`
        select ${sql.unsafe(POST_COLUMNS)} from app_public.review_post(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("postId"))}, ${decision === "approve"}, ${comment ?? null})`;
      if (!row) throw new ApiError("posts.notFound");
      return c.json(row);
    });
}
