import { expect, test } from "vitest";
import type { Draft } from "../../contract/drafts.ts";
import { adValuesOf } from "../../web/src/lib/adForm.ts";
import { draftInput, validate, valuesOf } from "../../web/src/lib/draftForm.ts";

const IMAGE = "/api/uploads/abcdefghijklmnop.png";

test("a new draft starts empty; a stored draft with only its old single image opens with that image as its album", () => {
  const noAd = adValuesOf(null);
  expect(valuesOf(undefined)).toEqual({ title: "", body: { text: "", entities: [] }, imageUrls: [], options: {}, ad: noAd });
  const stored = { title: "Spring", content: "Hello", entities: [], imageUrl: IMAGE, imageUrls: [], options: { silent: true } } as unknown as Draft;
  expect(valuesOf(stored)).toEqual({ title: "Spring", body: { text: "Hello", entities: [] }, imageUrls: [IMAGE], options: { silent: true }, ad: noAd });
});

test("the form names each field's problem by its code: a missing title, a title too long, a bad image", () => {
  const values = valuesOf(undefined);
  expect(validate({ ...values, title: "Spring" })).toEqual({});
  expect(validate(values).title).toBe("drafts.titleRequired");
  expect(validate({ ...values, title: "x".repeat(501) }).title).toBe("drafts.titleTooLong");
  expect(validate({ ...values, title: "Spring", imageUrls: ["/elsewhere.png"] }).imageUrls).toBe("drafts.invalidImageType");
});

test("what is sent: the title trimmed, the album's first image as the cover", () => {
  const values = { ...valuesOf(undefined), title: "  Spring  ", imageUrls: [IMAGE] };
  expect(draftInput(values)).toMatchObject({ title: "Spring", content: "", imageUrl: IMAGE, imageUrls: [IMAGE] });
  expect(draftInput(valuesOf(undefined)).imageUrl).toBeNull();
});
