/*
 * A post's formatting and options through the API (docs/post-format.md): stored and
 * answered as given, refused with a precise code when they do not fit, and carried from a
 * draft to the post made from it.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MessageEntity } from "../../contract/entities.ts";
import { makePng } from "../helpers/images.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true });
});
afterAll(() => stack.close());

const TEXT = "👋 Hello, *world*: read more";
const ENTITIES: MessageEntity[] = [
  { type: "bold", offset: 3, length: 5 },
  { type: "text_link", offset: 18, length: 9, url: "https://pressa.app/more" },
];
const OPTIONS = { silent: true, pin: true, unpinAfterHours: 24, linkPreview: "below", buttons: [[{ text: "Shop", url: "https://shop.example" }]] };

describe("drafts keep their formatting and options", () => {
  test("created with entities and options, answered and listed as given (the * stays a literal star)", async () => {
    const p = await projectWithChannel(stack);
    const created = await stack.call("POST", `${p.base}/drafts`, { title: "Hello", content: TEXT, entities: ENTITIES, options: OPTIONS }, p.cookie);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ content: TEXT, entities: ENTITIES, options: OPTIONS });
    const [listed] = (await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json;
    expect(listed).toMatchObject({ content: TEXT, entities: ENTITIES, options: OPTIONS });
  });

  test("new content without entities is plain; entities alone are refused", async () => {
    const p = await projectWithChannel(stack);
    const { id } = (await stack.call("POST", `${p.base}/drafts`, { title: "Hello", content: TEXT, entities: ENTITIES }, p.cookie)).json;
    const alone = await stack.call("PATCH", `${p.base}/drafts/${id}`, { entities: ENTITIES }, p.cookie);
    expect(alone.status).toBe(400);
    expect(alone.json.code).toBe("entities.withoutContent");
    const patched = await stack.call("PATCH", `${p.base}/drafts/${id}`, { content: "Short" }, p.cookie);
    expect(patched.json).toMatchObject({ content: "Short", entities: [] });
    const options = await stack.call("PATCH", `${p.base}/drafts/${id}`, { options: { silent: true } }, p.cookie);
    expect(options.json).toMatchObject({ content: "Short", options: { silent: true } });
  });

  test("formatting that does not fit its text is refused with a precise code, and nothing is stored", async () => {
    const p = await projectWithChannel(stack);
    const cases: [unknown, string][] = [
      [[{ type: "bold", offset: 20, length: 30 }], "entities.outOfRange"],
      [[{ type: "bold", offset: 1, length: 3 }], "entities.splitsCharacter"],
      [[{ type: "text_link", offset: 3, length: 5, url: "javascript:alert(1)" }], "entities.badLink"],
      [[{ type: "bold", offset: 3, length: 5 }, { type: "italic", offset: 5, length: 10 }], "entities.overlap"],
      [[{ type: "marquee", offset: 0, length: 2 }], "entities.unknownType"],
      [[{ type: "bold", offset: -1, length: 2 }], "entities.invalid"],
      ["bold", "entities.invalid"],
    ];
    for (const [entities, code] of cases) {
      const res = await stack.call("POST", `${p.base}/drafts`, { title: "Bad", content: TEXT, entities }, p.cookie);
      expect(res.status, code).toBe(400);
      expect(res.json.code, JSON.stringify(entities)).toBe(code);
    }
    expect((await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json).toEqual([]);
  });

  test("options are checked: three rows of three buttons at most, https or tg links, an unpin needs a pin", async () => {
    const p = await projectWithChannel(stack);
    const button = { text: "Go", url: "https://example.com" };
    const cases: [unknown, string][] = [
      [{ buttons: [[button], [button], [button], [button]] }, "posts.buttonsInvalid"],
      [{ buttons: [[button, button, button, button]] }, "posts.buttonsInvalid"],
      [{ buttons: [[{ text: "Go", url: "http://example.com" }]] }, "posts.buttonUrlInvalid"],
      [{ buttons: [[{ text: " ", url: "https://example.com" }]] }, "posts.buttonTextInvalid"],
      [{ unpinAfterHours: 5 }, "posts.unpinWithoutPin"],
      [{ pin: true, unpinAfterHours: 0 }, "posts.unpinAfterInvalid"],
      [{ linkPreview: "sideways" }, "posts.optionsInvalid"],
      [{ sound: "loud" }, "posts.optionsInvalid"],
    ];
    for (const [options, code] of cases) {
      const res = await stack.call("POST", `${p.base}/drafts`, { title: "Bad", content: "x", options }, p.cookie);
      expect(res.status, code).toBe(400);
      expect(res.json.code, JSON.stringify(options)).toBe(code);
    }
    const fine = await stack.call("POST", `${p.base}/drafts`, { title: "Fine", options: { buttons: [[button, button, button], [button], [button]] } }, p.cookie);
    expect(fine.status).toBe(201);
  });
});

describe("a post takes its draft's formatting and options", () => {
  test("from the draft, unless the request gives its own options", async () => {
    const p = await projectWithChannel(stack);
    const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Hello", content: TEXT, entities: ENTITIES, options: OPTIONS }, p.cookie)).json;
    const scheduledFor = new Date(Date.now() + 86_400_000).toISOString();
    const post = await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor }, p.cookie);
    expect(post.status).toBe(201);
    expect(post.json).toMatchObject({ content: TEXT, entities: ENTITIES, options: OPTIONS });

    const { id: otherDraft } = (await stack.call("POST", `${p.base}/drafts`, { title: "Other", content: TEXT, entities: ENTITIES, options: OPTIONS }, p.cookie)).json;
    const own = await stack.call("POST", `${p.base}/posts`, { draftId: otherDraft, scheduledFor, options: { silent: false } }, p.cookie);
    expect(own.json).toMatchObject({ entities: ENTITIES, options: { silent: false } });
    const edited = await stack.call("PUT", `${p.base}/posts/${post.json.id}`, { draftId, scheduledFor, options: { linkPreview: "above" } }, p.cookie);
    expect(edited.json.options).toEqual({ linkPreview: "above" });
  });
});

describe("albums", () => {
  async function upload(p: Awaited<ReturnType<typeof projectWithChannel>>) {
    const form = new FormData();
    form.append("image", new File([makePng(64, 48)], "a.png", { type: "image/png" }));
    const res = await stack.app.request(`${p.base}/upload-image`, { method: "POST", body: form, headers: { cookie: p.cookie } });
    return ((await res.json()) as { imageUrl: string }).imageUrl;
  }

  test("up to ten of the project's own uploads, first one first; imageUrl stays the first image", async () => {
    const p = await projectWithChannel(stack);
    const images = [await upload(p), await upload(p), await upload(p)];
    const created = await stack.call("POST", `${p.base}/drafts`, { title: "Album", imageUrls: images }, p.cookie);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ imageUrl: images[0], imageUrls: images });
    const reordered = await stack.call("PATCH", `${p.base}/drafts/${created.json.id}`, { imageUrls: [images[2], images[0]] }, p.cookie);
    expect(reordered.json).toMatchObject({ imageUrl: images[2], imageUrls: [images[2], images[0]] });
    // an old client replacing "the image" replaces the first one
    const replaced = await stack.call("PATCH", `${p.base}/drafts/${created.json.id}`, { imageUrl: images[1] }, p.cookie);
    expect(replaced.json).toMatchObject({ imageUrl: images[1], imageUrls: [images[1], images[0]] });
    const post = await stack.call("POST", `${p.base}/posts`, { draftId: created.json.id, scheduledFor: new Date(Date.now() + 86_400_000).toISOString() }, p.cookie);
    expect(post.json.imageUrls).toEqual([images[1], images[0]]);

    const eleven = Array.from({ length: 11 }, () => images[0]);
    const tooMany = await stack.call("POST", `${p.base}/drafts`, { title: "Too many", imageUrls: eleven }, p.cookie);
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.code).toBe("drafts.tooManyImages");
  });

  test("another project's upload cannot join an album, at any place in it", async () => {
    const mine = await projectWithChannel(stack);
    const theirs = await projectWithChannel(stack);
    const own = await upload(mine);
    const foreign = await upload(theirs);
    for (const imageUrls of [[own, foreign], [foreign]]) {
      const res = await stack.call("POST", `${mine.base}/drafts`, { title: "Stolen", imageUrls }, mine.cookie);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("uploads.notInProject");
    }
    expect((await stack.call("GET", `${mine.base}/drafts`, undefined, mine.cookie)).json).toEqual([]);
  });
});
