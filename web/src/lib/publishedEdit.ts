/*
 * The edit of a published post (docs/post-format.md "Editing a published post"), as rules: where the edit
 * starts, how long its text may be, and whether it may be sent. components/PublishedPostEdit
 * draws the form; these decide.
 */
import { type Ad, AD_LABEL_SEPARATOR, adLabel } from "../../../contract/ads.ts";
import { textLimit } from "../../../contract/post_plan.ts";
import type { UrlButton } from "../../../contract/post_options.ts";
import type { Post } from "../../../contract/posts.ts";
import type { FormattedText } from "./postDocument.ts";

export type PublishedEditStart = { body: FormattedText; buttons: UrlButton[][] };

/** An edit still waiting for approval is where the next one starts: the next one replaces it. */
export function publishedEditStart(post: Pick<Post, "pendingEdit" | "content" | "entities" | "options">): PublishedEditStart {
  const body = post.pendingEdit
    ? { text: post.pendingEdit.content, entities: post.pendingEdit.entities }
    : { text: post.content, entities: post.entities ?? [] };
  return { body, buttons: post.pendingEdit?.buttons ?? post.options?.buttons ?? [] };
}

/**
 * The limit of the message the text went out in, by the sender's plan: 1024 for a caption,
 * 4096 for a text message (a long text after a photo, or the text with an album's buttons).
 * An ad keeps its label in that message, so the label's share is not the edit's to use.
 */
export function publishedEditLimit(
  post: Pick<Post, "title" | "imageUrl" | "imageUrls" | "content" | "options"> & { ad?: Ad | null },
  projectLanguage = "ru",
): number {
  const label = post.ad ? AD_LABEL_SEPARATOR.length + adLabel(post.ad, projectLanguage).length : 0;
  return textLimit({ ...post, projectLanguage }) - label;
}

/** The send button waits for a text within the limit; an empty text would wipe the channel's message. */
export const canSendPublishedEdit = (body: FormattedText, limit: number) => body.text.trim() !== "" && body.text.length <= limit;

