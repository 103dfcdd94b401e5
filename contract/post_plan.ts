/**
 * The messages a post becomes in Telegram, as data: one plan for the sender
 * (core/telegram/post_message.ts sends exactly these) and for every preview the SPA draws, so a
 * preview cannot show what the channel will not get (docs/post-format.md). The parts:
 *   no image        one text message;
 *   one image       a photo with the text as its caption when it fits Telegram's 1024;
 *                   otherwise the photo, then the text;
 *   2-10 images     one album with the caption on its first photo when it fits and the
 *                   post has no URL buttons (an album cannot carry buttons); otherwise the
 *                   album, then the text with the buttons.
 * The post's URL buttons go under its last message; a pinned post pins its first message
 * (an album's first photo); a silent post goes out with every message silent.
 */
import { type Ad, withAdLabel } from "./ads.ts";
import type { MessageEntity } from "./entities.ts";
import { PHOTO_CAPTION_MAX, POST_CONTENT_MAX } from "./limits.ts";
import type { PostOptions, UrlButton } from "./post_options.ts";

export type PlannedPost = {
  title: string;
  content: string;
  entities?: readonly MessageEntity[];
  imageUrl?: string | null;
  /** The album, first image first; when absent, imageUrl alone. */
  imageUrls?: readonly string[];
  options?: PostOptions;
  /** A sold post's label goes out as its last line, in the project's language (contract/ads.ts). */
  ad?: Ad | null;
  projectLanguage?: string;
};

export type PostPart = "text" | "photo" | "photo+caption" | "album" | "album+caption";

export type PlannedText = { text: string; entities: readonly MessageEntity[] };

export type PlannedMessage = {
  part: PostPart;
  /** The photos of a photo or an album message, in order; none for a text message. */
  images: string[];
  /** The words this message carries: a text message's text, or a photo's caption; null when none. */
  text: PlannedText | null;
  /** Telegram's limit for those words: 4096 in a text message, 1024 in a caption. */
  limit: number;
  buttons: UrlButton[][];
  pinned: boolean;
  silent: boolean;
};

/**
 * The text that goes out with its entities: the content, or the title (plain) when the content
 * is empty, then an ad's label as the last line (plain: the entities end before it).
 */
export function plannedText(post: PlannedPost): PlannedText {
  const language = post.projectLanguage ?? "ru";
  if (post.content.trim() === "") return { text: withAdLabel(post.title, post.ad, language), entities: [] };
  return { text: withAdLabel(post.content, post.ad, language), entities: post.entities ?? [] };
}

export function plannedImages(post: PlannedPost): string[] {
  return post.imageUrls && post.imageUrls.length > 0 ? [...post.imageUrls] : post.imageUrl ? [post.imageUrl] : [];
}

/** The kinds of message a post takes, in order (see the header). */
export function postParts(post: PlannedPost): PostPart[] {
  const images = plannedImages(post).length;
  const fits = plannedText(post).text.length <= PHOTO_CAPTION_MAX;
  if (images === 0) return ["text"];
  if (images === 1) return fits ? ["photo+caption"] : ["photo", "text"];
  return fits && !post.options?.buttons?.length ? ["album+caption"] : ["album", "text"];
}

/** The messages the channel gets, in order, each with its words, buttons, pin and silence. */
export function planPost(post: PlannedPost): PlannedMessage[] {
  const parts = postParts(post);
  const images = plannedImages(post);
  const text = plannedText(post);
  const buttons = post.options?.buttons ?? [];
  return parts.map((part, index) => {
    const words = part === "text" || part.endsWith("+caption");
    return {
      part,
      images: part === "text" ? [] : part.startsWith("photo") ? images.slice(0, 1) : images,
      text: words ? text : null,
      limit: part === "text" ? POST_CONTENT_MAX : PHOTO_CAPTION_MAX,
      buttons: index === parts.length - 1 ? buttons : [],
      pinned: Boolean(post.options?.pin) && index === 0,
      silent: Boolean(post.options?.silent),
    };
  });
}

/**
 * The limit of the words being edited: the limit of the message that carries them. A text that
 * would no longer fit a caption moves to a message of its own, so only an already-separate text
 * gets 4096; a caption stays a caption (an edit cannot turn one message into two).
 */
export function textLimit(post: PlannedPost): number {
  return planPost(post).find((message) => message.text)?.limit ?? POST_CONTENT_MAX;
}
