/*
 * A post as Telegram shows it (docs/post-format.md), sent by the one function that sends
 * posts (core/telegram/post_message.ts) to the local Bot API server: the exact entities,
 * albums, URL buttons, the link preview and silence arrive as the owner set them, and the
 * approver's decision buttons never mix with the post's own.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Api } from "grammy";
import type { MessageEntity } from "../../contract/entities.ts";
import { localDiskStorage, newStorageKey } from "../../core/storage.ts";
import { createTelegramApi } from "../../core/telegram/client.ts";
import { type PostForTelegram, sendPost } from "../../core/telegram/post_message.ts";
import { makePng, startTelegramServer, type TelegramServer } from "../../sandbox/telegram/server.ts";

let telegram: TelegramServer;
let api: Api;
let dir: string;
const storage = () => localDiskStorage(dir);

beforeAll(async () => {
  telegram = await startTelegramServer();
  api = createTelegramApi(telegram.token, telegram.apiRoot)!;
  dir = await Deno.makeTempDir({ prefix: "pressa-format-" });
});
afterAll(async () => {
  await telegram.close();
  await Deno.remove(dir, { recursive: true });
});

/** An upload of the project, as drafts and posts refer to it. */
async function upload(rgb: [number, number, number]): Promise<string> {
  const key = newStorageKey("png");
  await storage().put(key, makePng(40, 30, rgb), "image/png");
  return `/api/uploads/${key}`;
}

const TEXT = "🚀 Launch day: bold words and a link, then a quote.";
// offsets in UTF-16 units: the rocket counts two, so "bold words" starts at 15
const ENTITIES: MessageEntity[] = [
  { type: "bold", offset: 15, length: 10 },
  { type: "italic", offset: 20, length: 5 },
  { type: "text_link", offset: 32, length: 4, url: "https://pressa.app/launch" },
  { type: "blockquote", offset: 45, length: 6 },
];
const post = (extra: Partial<PostForTelegram> = {}): PostForTelegram => ({ title: "Launch", content: TEXT, entities: ENTITIES, imageUrl: null, ...extra });
const decision = { text: "⬆️ decide", markup: { inline_keyboard: [[{ text: "✅", callback_data: "approve:1" }]] } };

test("a formatted text arrives with its exact entities, no link preview, and notifies by default", async () => {
  const channel = telegram.addChannel();
  const [id] = await sendPost(api, channel.id, post(), storage());
  const info = telegram.messageInfo(channel.id, id)!;
  expect(info.message.text).toBe(TEXT);
  expect(info.message.entities).toEqual(ENTITIES);
  expect(ENTITIES.map((e) => TEXT.slice(e.offset, e.offset + e.length))).toEqual(["bold words", "words", "link", "quote."]);
  expect(info.silent).toBe(false);
  const sent = telegram.requests.findLast((r) => r.method === "sendMessage")!;
  expect(sent.params.parse_mode).toBeUndefined();
  expect(sent.params.link_preview_options).toEqual({ is_disabled: true });
});

test("silent, a link preview above the text and URL buttons, as the owner set them", async () => {
  const channel = telegram.addChannel();
  const buttons = [[{ text: "Buy", url: "https://shop.example/item" }, { text: "Bot", url: "tg://resolve?domain=pressa_bot" }]];
  const [id] = await sendPost(api, channel.id, post({ options: { silent: true, linkPreview: "above", buttons } }), storage());
  const info = telegram.messageInfo(channel.id, id)!;
  expect(info.silent).toBe(true);
  expect(info.message.reply_markup?.inline_keyboard).toEqual(buttons);
  const sent = telegram.requests.findLast((r) => r.method === "sendMessage")!;
  expect(sent.params.link_preview_options).toEqual({ show_above_text: true });
});

test("three images go out as one album with the caption and its entities on the first photo", async () => {
  const channel = telegram.addChannel();
  const images = [await upload([200, 0, 0]), await upload([0, 200, 0]), await upload([0, 0, 200])];
  const ids = await sendPost(api, channel.id, post({ imageUrls: images, imageUrl: images[0], options: { silent: true } }), storage());
  expect(ids).toHaveLength(3);
  const messages = ids.map((id) => telegram.messageInfo(channel.id, id)!);
  expect(new Set(messages.map((m) => m.message.media_group_id)).size).toBe(1);
  expect(messages[0].message.caption).toBe(TEXT);
  expect(messages[0].message.caption_entities).toEqual(ENTITIES);
  expect(messages.slice(1).every((m) => m.message.caption === undefined)).toBe(true);
  expect(messages.every((m) => m.silent)).toBe(true);
});

test("an album with buttons: the album, then the text carrying the buttons; each part reported before the next", async () => {
  const channel = telegram.addChannel();
  const images = [await upload([10, 10, 10]), await upload([90, 90, 90])];
  const reported: number[][] = [];
  const buttons = [[{ text: "Read", url: "https://pressa.app/read" }]];
  const ids = await sendPost(api, channel.id, post({ imageUrls: images, imageUrl: images[0], options: { buttons } }), storage(), {
    onPartSent: async (part) => void reported.push(part),
  });
  expect(ids).toHaveLength(3);
  expect(reported).toEqual([ids.slice(0, 2)]);
  const text = telegram.messageInfo(channel.id, ids[2])!.message;
  expect(text.text).toBe(TEXT);
  expect(text.entities).toEqual(ENTITIES);
  expect(text.reply_markup?.inline_keyboard).toEqual(buttons);
  expect(telegram.messageInfo(channel.id, ids[0])!.message.caption).toBeUndefined();
});

test("a caption over 1024 characters: the photo, then the text with its entities", async () => {
  const channel = telegram.addChannel();
  const long = `${TEXT} ${"Подробности. ".repeat(100)}`.trim();
  const image = await upload([30, 60, 90]);
  const ids = await sendPost(api, channel.id, post({ content: long, imageUrl: image }), storage());
  expect(ids).toHaveLength(2);
  expect(telegram.messageInfo(channel.id, ids[0])!.message.photo?.length).toBeGreaterThan(0);
  expect(telegram.messageInfo(channel.id, ids[1])!.message.text).toBe(long);
  expect(telegram.messageInfo(channel.id, ids[1])!.message.entities).toEqual(ENTITIES);
});

test("the preview: decision buttons on the post when it has none of its own, on a message of their own otherwise", async () => {
  const admin = telegram.addUser({ startedBot: true });
  const plain = await sendPost(api, admin.id, post(), storage(), { decision });
  expect(plain).toHaveLength(1);
  expect(telegram.messageInfo(admin.id, plain[0])!.message.reply_markup).toEqual(decision.markup);

  const buttons = [[{ text: "Buy", url: "https://shop.example/item" }]];
  const withButtons = await sendPost(api, admin.id, post({ options: { buttons, silent: true } }), storage(), { decision });
  expect(withButtons).toHaveLength(2);
  const [shown, decide] = withButtons.map((id) => telegram.messageInfo(admin.id, id)!);
  expect(shown.message.reply_markup?.inline_keyboard).toEqual(buttons);
  expect(decide.message.text).toBe(decision.text);
  expect(decide.message.reply_markup).toEqual(decision.markup);
  // the approver is told about a silent post like any other
  expect(shown.silent).toBe(false);

  const images = [await upload([1, 2, 3]), await upload([4, 5, 6])];
  const album = await sendPost(api, admin.id, post({ imageUrls: images, imageUrl: images[0] }), storage(), { decision });
  expect(album).toHaveLength(3);
  expect(telegram.messageInfo(admin.id, album[2])!.message.reply_markup).toEqual(decision.markup);
});

test("a post without content goes out as its title, with no entities", async () => {
  const channel = telegram.addChannel();
  const [id] = await sendPost(api, channel.id, post({ content: "  " }), storage());
  const message = telegram.messageInfo(channel.id, id)!.message;
  expect(message.text).toBe("Launch");
  expect(message.entities).toBeUndefined();
});
