/*
 * Comments on a post (docs/teams.md "Comments"): any member reads them, oldest first; any
 * member but a viewer writes. app_public.add_post_comment also tells a returned post's author.
 */
import { Hono } from "hono";
import { CommentWriteSchema, type PostComment } from "../../contract/review.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { body, idParam } from "../validate.ts";

type CommentRow = { id: number; userId: number | null; email: string | null; text: string; createdAt: string };
const shaped = (r: CommentRow): PostComment => ({ id: r.id, author: { userId: r.userId, email: r.email }, text: r.text, createdAt: r.createdAt });

export function commentRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const rows = await sql<CommentRow[]>`
        select * from app_public.post_comment_list(${currentUser(c).id}, ${idParam(c.req.param("projectId"))}, ${idParam(c.req.param("postId"))})`;
      return c.json(rows.map(shaped));
    })
    .post("/", body(CommentWriteSchema), async (c) => {
      const [row] = await sql<CommentRow[]>`
        select * from app_public.add_post_comment(${currentUser(c).id}, ${idParam(c.req.param("projectId"))}, ${idParam(c.req.param("postId"))},
          ${c.req.valid("json").text})`;
      return c.json(shaped(row), 201);
    })
    // a writer corrects or takes back their own comment; an owner may remove anyone's
    .patch("/:commentId", body(CommentWriteSchema), async (c) => {
      const [row] = await sql<CommentRow[]>`
        select * from app_public.edit_post_comment(${currentUser(c).id}, ${idParam(c.req.param("projectId"))}, ${idParam(c.req.param("postId"))},
          ${idParam(c.req.param("commentId"))}, ${c.req.valid("json").text})`;
      return c.json(shaped(row));
    })
    .delete("/:commentId", async (c) => {
      await sql`select app_public.delete_post_comment(${currentUser(c).id}, ${idParam(c.req.param("projectId"))}, ${idParam(c.req.param("postId"))},
        ${idParam(c.req.param("commentId"))})`;
      return c.json({ ok: true });
    });
}
