/*
 * A post's reason is stored as a code with params (contract/post_reasons.ts) and worded
 * by whoever shows it: every code has words in both dictionaries with the same names as its
 * English message, and the names reach the text. Nothing reads a reason back from words.
 */
import { expect, test } from "vitest";
import { POST_REASON_CODES, type PostReasonCode, postReasonMessage } from "../../contract/post_reasons.ts";
import { lostRightsReason } from "../../core/telegram/channel_rights.ts";
import { reasonText } from "../../web/src/lib/postMessages.ts";
import { DICTIONARIES, translator } from "../helpers/i18n.ts";

const dictionaries = DICTIONARIES;
const names = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]).sort();

test("every reason code has words in both languages, naming what its English message names", () => {
  for (const [code, { message }] of Object.entries(POST_REASON_CODES)) {
    for (const [language, dictionary] of Object.entries(dictionaries)) {
      expect(dictionary[code], `${language}: ${code}`).toBeTruthy();
      expect(names(dictionary[code], /\{\{(\w+)\}\}/g), `${language}: ${code}`).toEqual(names(message, /\{(\w+)\}/g));
    }
  }
});

test("the channel-trust reasons read in Russian with their names", () => {
  const t = translator(dictionaries.ru);
  const approver = lostRightsReason("approverNotAdmin", "@olga_admin", "@city_news");
  expect(approver).toEqual({ code: "posts.error.approverLost", params: { handle: "olga_admin", channel: "@city_news" } });
  expect(reasonText(t, approver.code, approver.params)).toContain("@olga_admin больше не администратор канала @city_news");
  for (const problem of ["botNotAdmin", "botCannotPost"] as const) {
    const bot = lostRightsReason(problem, "olga_admin", "@city_news");
    expect(reasonText(t, bot.code, bot.params)).toBe(DICTIONARIES.ru["posts.error.botLost"].replace("{{channel}}", "@city_news"));
  }
  expect(reasonText(t, "posts.error.channelDisconnected", { channel: "@city_news" })).toContain("Канал @city_news отключили");
});

test("in English a reason reads as the dictionary's sentence with its names", () => {
  const t = translator(dictionaries.en);
  expect(reasonText(t, "posts.error.approverLost", { handle: "olga_admin", channel: "@city_news" })).toBe(
    "@olga_admin is no longer an administrator of @city_news who may post. The post was not sent. " +
      "Name a current administrator in the project and publish the post again.",
  );
  expect(reasonText(t, "schedule.captionTooLong", { current: 5000, max: 4096 })).toContain("5000/4096");
  expect(reasonText(translator(dictionaries.ru), "schedule.captionTooLong", { current: 5000, max: 4096 })).toMatch(/^Текст слишком длинный.*5000\/4096/);
});

test("an autopilot post sent without AI text says why in the interface's language, its cause translated too", () => {
  const shown = reasonText(translator(dictionaries.ru), "posts.error.autopilotNoAi", { reason: "ai.notConfigured" });
  expect(shown).toMatch(/^ИИ не смог написать этот пост \(ИИ на этом сервере не настроен/);
  expect(shown).not.toContain("The AI");
  // API clients and the bot read the catalogue's English, the cause in English too
  expect(postReasonMessage("posts.error.autopilotNoAi", { reason: "ai.timeout" })).toBe(
    "The AI could not write this post (The AI took too long to answer. Please try again.); it goes to the admin as its draft is.",
  );
});

test("Telegram's own words and a reason stored before codes show as they are, inside the interface's sentence", () => {
  const t = translator(dictionaries.ru);
  expect(reasonText(t, "posts.error.telegram", { description: "Bad Request: chat not found" })).toBe("Telegram: Bad Request: chat not found");
  expect(reasonText(t, "posts.error.editRefused", { description: "Bad Request: message to edit not found" }))
    .toBe("Telegram отклонил правку: Bad Request: message to edit not found");
  expect(reasonText(t, "posts.error.other", { text: "Something old" })).toBe("Something old");
  // a code of a newer server reads in its English, never as a bare key
  expect(reasonText(t, "posts.error.fromTheFuture" as PostReasonCode, {})).toBe("posts.error.fromTheFuture");
});

test("every reason code the SQL functions store is in the catalogue", async () => {
  const dir = new URL("../../sql/functions/", import.meta.url);
  const stored = new Set<string>();
  for await (const entry of Deno.readDir(dir)) {
    const text = await Deno.readTextFile(new URL(entry.name, dir));
    // a reason is handed over as a literal code: to a column, a parameter or a called function
    for (const [, code] of text.matchAll(/'((?:posts\.error|schedule)\.\w+)'/g)) stored.add(code);
  }
  expect(stored).toContain("posts.error.workerStopped");
  for (const code of stored) if (code.startsWith("posts.error.")) expect(Object.keys(POST_REASON_CODES), code).toContain(code);
  // the reasons SQL stores under a code of the error catalogue
  for (const code of ["schedule.seriesOutOfDrafts", "schedule.captionTooLong", "schedule.noChannelToPublish"]) {
    expect(stored, code).toContain(code);
    expect(Object.keys(POST_REASON_CODES), code).toContain(code);
  }
});
