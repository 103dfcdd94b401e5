/*
 * How a post goes out besides its words (docs/post-format.md): quietly, pinned, with or
 * without its link preview, with URL buttons under it. Drafts and posts both carry them; a
 * post made from a draft takes the draft's unless the request gives its own.
 */
import * as v from "valibot";
import { isAllowedLink, isUnsafeLink } from "./entities.ts";

export const LINK_PREVIEWS = ["off", "above", "below"] as const;
export type LinkPreview = (typeof LINK_PREVIEWS)[number];

/** Telegram's inline keyboards allow more; three by three is what reads well under a post. */
export const BUTTON_ROWS_MAX = 3;
export const BUTTONS_PER_ROW_MAX = 3;
export const BUTTON_TEXT_MAX = 64;
/** A pin that lifts itself: at most a month. */
export const UNPIN_AFTER_HOURS_MAX = 24 * 31;
/** Images of one post, sent as one album (Telegram's own maximum). */
export const POST_IMAGES_MAX = 10;

export type UrlButton = { text: string; url: string };
export type PostOptions = {
  silent?: boolean;
  pin?: boolean;
  unpinAfterHours?: number;
  linkPreview?: LinkPreview;
  buttons?: UrlButton[][];
};

const ButtonSchema = v.object({
  text: v.pipe(v.string("posts.buttonTextInvalid"), v.trim(), v.minLength(1, "posts.buttonTextInvalid"), v.maxLength(BUTTON_TEXT_MAX, "posts.buttonTextInvalid")),
  url: v.pipe(
    v.string("posts.buttonUrlInvalid"),
    v.check((url) => !isUnsafeLink(url), "posts.unsafeLink"),
    v.check(isAllowedLink, "posts.buttonUrlInvalid"),
  ),
});

export const PostOptionsSchema = v.pipe(
  v.strictObject({
    silent: v.optional(v.boolean("posts.optionsInvalid")),
    pin: v.optional(v.boolean("posts.optionsInvalid")),
    unpinAfterHours: v.optional(
      v.pipe(v.number("posts.unpinAfterInvalid"), v.integer("posts.unpinAfterInvalid"), v.minValue(1, "posts.unpinAfterInvalid"), v.maxValue(UNPIN_AFTER_HOURS_MAX, "posts.unpinAfterInvalid")),
    ),
    linkPreview: v.optional(v.picklist(LINK_PREVIEWS, "posts.optionsInvalid")),
    buttons: v.optional(
      v.pipe(
        v.array(v.pipe(v.array(ButtonSchema), v.minLength(1, "posts.buttonsInvalid"), v.maxLength(BUTTONS_PER_ROW_MAX, "posts.buttonsInvalid"))),
        v.maxLength(BUTTON_ROWS_MAX, "posts.buttonsInvalid"),
      ),
    ),
  }, "posts.optionsInvalid"),
  v.check((options) => options.unpinAfterHours === undefined || options.pin === true, "posts.unpinWithoutPin"),
);
