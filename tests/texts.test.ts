/*
 * The words server processes send live in texts/, one dictionary per language. A key added
 * in one language and forgotten in the other would send an admin `undefined` or crash a
 * task: the two must name the same texts, and each text take the same arguments.
 */
import { expect, test } from "vitest";
import { MEMBER_NOTIFICATION_KINDS, NOTIFICATION_KINDS } from "../contract/notifications.ts";
import { POST_REASON_CODES } from "../contract/post_reasons.ts";
import { NOTIFICATION_WORDS } from "../texts/mail.ts";
import { REASON_TEXTS, reasonWords } from "../texts/reasons.ts";
import { ADMIN_TEXTS, botLanguage, REGISTRATION_TEXTS } from "../texts/telegram.ts";

/** Each text's name with its kind: a string, or a function of n arguments. */
const shape = (words: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(words).map(([key, value]) => [key, typeof value === "function" ? `fn/${value.length}` : typeof value]));

test.each([
  ["the bot's words to the channel admin", ADMIN_TEXTS],
  ["the bot's words to whoever registers", REGISTRATION_TEXTS],
  ["the notification mails", NOTIFICATION_WORDS],
] as const)("%s: Russian and English name the same texts, with the same arguments", (_, dictionary) => {
  expect(Object.keys(dictionary).sort()).toEqual(["en", "ru"]);
  expect(shape(dictionary.en)).toEqual(shape(dictionary.ru));
  for (const language of ["ru", "en"] as const) {
    for (const [key, value] of Object.entries(dictionary[language])) {
      if (typeof value === "string") expect(value.trim(), `${language}.${key}`).not.toBe("");
    }
  }
});

test("a post's reasons: both languages word the same codes with the same placeholders", () => {
  const placeholders = (words: Record<string, string>) =>
    Object.fromEntries(Object.entries(words).map(([code, text]) => [code, [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()]));
  expect(placeholders(REASON_TEXTS.en)).toEqual(placeholders(REASON_TEXTS.ru));
});

test("a reason reads in the owner's language with its params; an AI failure inside it in its own words", () => {
  expect(reasonWords("ru", "posts.error.botLost", { channel: "@news" })).toContain("@news");
  expect(reasonWords("ru", "posts.error.botLost", { channel: "@news" })).not.toBe(reasonWords("en", "posts.error.botLost", { channel: "@news" }));
  expect(reasonWords("en", "schedule.captionTooLong", { current: 5000, max: 4096 })).toContain("5000/4096");
  const nested = reasonWords("en", "posts.error.autopilotNoAi", { reason: "ai.rateLimited" });
  expect(nested).not.toContain("ai.rateLimited");
  expect(nested).toContain("Too many AI requests");
  // a code this server has no words for reads in the catalogue's English, never as the bare code
  expect(reasonWords("ru", "posts.error.other", { text: "Telegram is down" })).toBe("Telegram is down");
});

test("the bot picks its language by one rule: the project's, else the person's Telegram language, else Russian", () => {
  expect(botLanguage("en", "ru")).toBe("en");
  expect(botLanguage("ru", "en-GB")).toBe("ru");
  // about no project (registering): the person's own language, English for any but Russian
  expect(botLanguage(null, "ru")).toBe("ru");
  expect(botLanguage(null, "de")).toBe("en");
  expect(botLanguage(null, "en-US")).toBe("en");
  // nothing known: the product's default
  expect(botLanguage(null)).toBe("ru");
  expect(botLanguage(undefined, "")).toBe("ru");
});

test("a failure notice to a Russian approver gives the reason in Russian, as the owner's mail does", () => {
  const code = Object.keys(REASON_TEXTS.ru).find((key) => REASON_TEXTS.ru[key] !== REASON_TEXTS.en[key] && !REASON_TEXTS.ru[key].includes("{{"))!;
  const reason = reasonWords(botLanguage("ru"), code);
  expect(reason).toMatch(/[а-яё]/i);
  expect(ADMIN_TEXTS[botLanguage("ru")].failed("Запуск", "@city", reason)).toContain(reason);
});

test("a post's reason has one English wording: the dictionary's English is the contract's message", () => {
  for (const [code, { message }] of Object.entries(POST_REASON_CODES)) {
    expect(REASON_TEXTS.en[code], code).toBe(message.replace(/\{(\w+)\}/g, "{{$1}}"));
  }
  expect(Object.keys(REASON_TEXTS.en).sort()).toEqual(Object.keys(POST_REASON_CODES).sort());
  // English lives in the contract alone: no second file of English reasons beside the Russian one
  expect([...Deno.readDirSync(new URL("../texts/", import.meta.url))].map((entry) => entry.name)).not.toContain("reasons.en.json");
});

test("the notification kinds SQL knows are the kinds TypeScript knows", () => {
  const root = new URL("../", import.meta.url);
  const schema = Deno.readTextFileSync(new URL("sql/schema.sql", root));
  const checked = schema.match(/notifications_sent_kind_check CHECK \(\(kind = ANY \(ARRAY\[([^\]]+)\]/)![1];
  const inTable = [...checked.matchAll(/'(\w+)'::text/g)].map(([, kind]) => kind);
  // the owner's kinds are counted once a day in notifications_sent; a member's are mailed per event
  const ownerKinds = NOTIFICATION_KINDS.filter((kind) => !(MEMBER_NOTIFICATION_KINDS as readonly string[]).includes(kind));
  expect(inTable.sort()).toEqual([...ownerKinds].sort());
  const functions = Deno.readTextFileSync(new URL("sql/functions/notifications.sql", root));
  const switchedOn = Object.keys(JSON.parse(functions.match(/select '(\{"queueLow"[^']+\})'::jsonb/)![1]));
  expect(switchedOn.sort()).toEqual([...NOTIFICATION_KINDS].sort());
  // every kind SQL sends goes through notify_owner or notify_member with its name
  const sent = new Set<string>();
  for (const entry of Deno.readDirSync(new URL("sql/functions/", root))) {
    const text = Deno.readTextFileSync(new URL(`sql/functions/${entry.name}`, root));
    for (const [, kind] of text.matchAll(/notify_(?:owner|member)\([^;]*?'(\w+)'/g)) sent.add(kind);
  }
  expect([...sent].sort()).toEqual([...NOTIFICATION_KINDS].sort());
});

/** A text as sent: a function called with stand-in arguments (a name, a number, a record of them). */
function sentText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value !== "function") return undefined;
  const stand = new Proxy({}, { get: (_, key) => (key === Symbol.toPrimitive ? () => "7" : key === "length" ? 0 : "x") });
  try {
    const out = value(...Array.from({ length: value.length }, () => stand));
    return typeof out === "string" ? out : JSON.stringify(out);
  } catch {
    return undefined;
  }
}

test.each([
  ["the bot's words to the channel admin", ADMIN_TEXTS],
  ["the bot's words to whoever registers", REGISTRATION_TEXTS],
  ["the notification mails", NOTIFICATION_WORDS],
  ["a post's reasons", REASON_TEXTS],
] as const)("%s: the English says nothing in Russian", (_, dictionary) => {
  const english = Object.entries(dictionary.en as Record<string, unknown>).map(([key, value]) => [key, sentText(value)] as const);
  // most texts are read whole; the few whose arguments the stand-ins cannot play are named by the rest
  expect(english.filter(([, text]) => text !== undefined).length).toBeGreaterThan(english.length / 2);
  expect(english.filter(([, text]) => text !== undefined && /[А-Яа-яЁё]/.test(text)).map(([key]) => key)).toEqual([]);
});
