/*
 * The shared preview table (tests/cases/post_preview_cases.ts) against the sender: each case is
 * sent by sendPost (core/telegram/post_message.ts) to the Telegram Bot API double, pinned the
 * way posts__pin pins a post (its first message), and read back from the messages the channel
 * holds. tests/components/post_preview.test.tsx holds the SPA's preview to the same table.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Api } from "grammy";
import { localDiskStorage, newStorageKey } from "../../core/storage.ts";
import { createTelegramApi } from "../../core/telegram/client.ts";
import { sendPost } from "../../core/telegram/post_message.ts";
import { type ExpectedMessage, PREVIEW_CASES } from "../cases/post_preview_cases.ts";
import { makePng, startTelegramServer, type TelegramServer } from "../../sandbox/telegram/server.ts";

let telegram: TelegramServer;
let api: Api;
let dir: string;

beforeAll(async () => {
  telegram = await startTelegramServer();
  api = createTelegramApi(telegram.token, telegram.apiRoot)!;
  dir = await Deno.makeTempDir({ prefix: "pressa-preview-" });
});
afterAll(async () => {
  await telegram.close();
  await Deno.remove(dir, { recursive: true });
});

async function upload(shade: number): Promise<string> {
  const key = newStorageKey("png");
  await localDiskStorage(dir).put(key, makePng(40, 30, [shade, 0, 0]), "image/png");
  return `/api/uploads/${key}`;
}

for (const c of PREVIEW_CASES) {
  test(`sent: ${c.name}`, async () => {
    const channel = telegram.addChannel();
    const imageUrls = await Promise.all(Array.from({ length: c.images }, (_, i) => upload(40 * (i + 1))));
    const post = { title: "Title", content: c.content, imageUrl: imageUrls[0] ?? null, imageUrls, options: { buttons: c.buttons, silent: c.silent, pin: c.pin }, ad: c.ad, projectLanguage: c.projectLanguage };
    const ids = await sendPost(api, channel.id, post, localDiskStorage(dir));
    if (c.pin) await api.pinChatMessage(channel.id, ids[0], { disable_notification: true });

    // An album's photos are one message as a reader sees it.
    const seen: ExpectedMessage[] = [];
    let group: string | undefined;
    for (const id of ids) {
      const info = telegram.messageInfo(channel.id, id)!;
      const message = info.message;
      if (message.media_group_id && message.media_group_id === group) {
        seen.at(-1)!.images += 1;
        continue;
      }
      group = message.media_group_id;
      const photo = Boolean(message.photo?.length);
      const words = message.text ?? message.caption ?? null;
      seen.push({
        part: photo ? `${group ? "album" : "photo"}${words ? "+caption" : ""}` as ExpectedMessage["part"] : "text",
        images: photo ? 1 : 0,
        words,
        buttons: (message.reply_markup?.inline_keyboard ?? []).map((row) => row.map((button) => button.text)),
        pinned: info.pinned,
        silent: info.silent,
      });
    }
    expect(seen).toEqual(c.expected);
  });
}
