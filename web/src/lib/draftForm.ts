import * as v from "valibot";
import { DraftCreateSchema, type Draft } from "../../../contract/drafts.ts";
import type { PostOptions } from "../../../contract/post_options.ts";
import { adInput, adOptionsProblem, adValuesOf, type AdErrors, type AdValues, hasAdErrors, validateAd } from "./adForm.ts";
import type { FormattedText } from "./postDocument.ts";
import { cleanOptions, hasOptionErrors } from "./postOptions.ts";

/** The draft dialog's form rules: what it starts from, what it refuses, and what it sends. */

/** `body`: the text with its formatting (Telegram's entities, docs/post-format.md). */
/** `imageUrls`: the album, first (the cover) first; empty for none. */
/** `ad`: the "Advertising" section (lib/adForm.ts). */
export type Values = { title: string; body: FormattedText; imageUrls: string[]; options: PostOptions; ad: AdValues };
export type FieldErrors = { title?: string; content?: string; imageUrls?: string; options?: string; ad?: AdErrors };

const EMPTY_BODY: FormattedText = { text: "", entities: [] };

export const valuesOf = (draft: Draft | undefined): Values => ({
  title: draft?.title ?? "",
  body: draft ? { text: draft.content ?? "", entities: draft.entities ?? [] } : EMPTY_BODY,
  imageUrls: draft?.imageUrls?.length ? draft.imageUrls : draft?.imageUrl ? [draft.imageUrl] : [],
  options: draft?.options ?? {},
  ad: adValuesOf(draft?.ad),
});

/**
 * What the AI may write in the form: the title and the text, nothing else. The ad's fields (the
 * label's advertiser and erid above all) are the owner's alone, so a generation never touches them.
 */
export type Generated = Partial<Pick<Values, "title" | "body">>;

export function withGenerated(values: Values, generated: Generated): Values {
  return {
    ...values,
    ...(generated.title === undefined ? {} : { title: generated.title }),
    ...(generated.body === undefined ? {} : { body: generated.body }),
  };
}

export function validate(values: Values): FieldErrors {
  const result = v.safeParse(DraftCreateSchema, {
    title: values.title,
    content: values.body.text,
    entities: values.body.entities,
    imageUrls: values.imageUrls,
    options: cleanOptions(values.options),
  });
  const buttons = hasOptionErrors(values.options) ? "posts.buttonsInvalid" : undefined;
  const format = adOptionsProblem(values.ad.enabled ? adInput(values.ad) : null, cleanOptions(values.options));
  const adErrors = { ...validateAd(values.ad), ...(format ? { format } : {}) };
  const ad = hasAdErrors(adErrors) ? adErrors : undefined;
  if (result.success) return { ...(buttons ? { options: buttons } : {}), ...(ad ? { ad } : {}) };
  const flat = v.flatten<typeof DraftCreateSchema>(result.issues);
  const nested = flat.nested ?? {};
  const options = Object.entries(nested).find(([path]) => path.startsWith("options"))?.[1]?.[0];
  return {
    title: nested.title?.[0],
    // Entities that do not fit the text (including a check of the whole body) show under the editor.
    content: nested.content?.[0] ?? Object.entries(nested).find(([path]) => path.startsWith("entities"))?.[1]?.[0] ?? flat.root?.[0],
    imageUrls: Object.entries(nested).find(([path]) => path.startsWith("imageUrls"))?.[1]?.[0],
    options: options ?? buttons,
    ad,
  };
}

/** What the dialog sends: the trimmed title, the text with its formatting, the album, options and the ad (null when off). */
export function draftInput(values: Values) {
  return {
    title: values.title.trim(),
    content: values.body.text,
    entities: values.body.entities,
    imageUrl: values.imageUrls[0] ?? null,
    imageUrls: values.imageUrls,
    options: cleanOptions(values.options),
    ad: adInput(values.ad),
  };
}
