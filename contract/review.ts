/*
 * Review before Telegram and comments on posts (shared contract, docs/teams.md): an author's
 * post waits in `in_review` until an editor or owner approves or returns it; members who may
 * write (not viewers) comment on posts.
 */
import * as v from "valibot";

/** A comment's words: 1–2000 characters, not only spaces. */
export const COMMENT_MAX = 2000;
const CommentText = v.pipe(
  v.optional(v.string("comments.textInvalid"), ""),
  v.check((text) => text.trim() !== "", "comments.textInvalid"),
  v.maxLength(COMMENT_MAX, "comments.textInvalid"),
);

/** POST …/posts/{postId}/review */
export const ReviewSchema = v.object({
  decision: v.picklist(["approve", "return"], "review.decisionInvalid"),
  comment: v.optional(v.nullable(v.pipe(v.string("comments.textInvalid"), v.maxLength(COMMENT_MAX, "comments.textInvalid")))),
});
export type ReviewDecision = v.InferOutput<typeof ReviewSchema>["decision"];

/** POST …/posts/{postId}/comments */
export const CommentWriteSchema = v.object({ text: CommentText });

export type PostComment = {
  id: number;
  /** Null once the writer's account is deleted. */
  author: { userId: number | null; email: string | null };
  text: string;
  createdAt: string;
};
