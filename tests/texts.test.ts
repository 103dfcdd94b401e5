/*
 * The words server processes send live in texts/, one dictionary per language. A key added
 * in one language and forgotten in the other would send an admin `undefined` or crash a
 * task: the two must name the same texts, and each text take the same arguments.
 */
import { expect, test } from "vitest";
import { NOTIFICATION_WORDS } from "../texts/mail.ts";
import { ADMIN_TEXTS, REGISTRATION_TEXTS } from "../texts/telegram.ts";

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
