/*
 * English as good as Russian (docs/accessibility.md "Languages"): the SPA's two dictionaries
 * must each speak their own language. An English entry with Cyrillic in it, or a Russian entry
 * left in English prose, is a screen half in the other language (34 entries of en.json once
 * were Russian: the bug-report dialog and the admin's bug-reports page).
 */
import { expect, test } from "vitest";
import en from "../../web/src/i18n/en.json" with { type: "json" };
import ru from "../../web/src/i18n/ru.json" with { type: "json" };

const CYRILLIC = /[А-Яа-яЁё]/;
/** A language's own name is written in that language in both lists (the switch shows "Русский" to everyone). */
const ENDONYM = /^language\./;

/** The words of an entry, without its placeholders, addresses and handles. */
const words = (text: string) =>
  text.replace(/\{\{\w+\}\}/g, " ").replace(/\S+@\S+|https?:\/\/\S+|@\w+/g, " ").match(/[A-Za-z]{2,}/g) ?? [];

function englishWithCyrillic(dictionary: Record<string, string>) {
  return Object.entries(dictionary).filter(([key, text]) => !ENDONYM.test(key) && CYRILLIC.test(text)).map(([key]) => key);
}

/** Russian entries written as English prose: no Cyrillic, and two or more English words. */
function russianInEnglish(dictionary: Record<string, string>) {
  return Object.entries(dictionary).filter(([key, text]) => !ENDONYM.test(key) && !CYRILLIC.test(text) && words(text).length >= 2)
    .map(([key]) => key);
}

test("no English entry holds Cyrillic", () => {
  expect(englishWithCyrillic(en)).toEqual([]);
});

test("no Russian entry is English prose (brand names, codes and addresses aside)", () => {
  expect(russianInEnglish(ru)).toEqual([]);
});

test("the rules catch what they are for, and let pass what is meant", () => {
  expect(englishWithCyrillic({ "bugReport.title": "Сообщить об ошибке", "language.ru": "Русский", ok: "Report" })).toEqual(["bugReport.title"]);
  expect(russianInEnglish({
    "admin.loadFailed": "Failed to load admin dashboard data",
    "auth.email": "E-mail",
    "auth.emailPlaceholder": "you@example.com",
    "postEditor.length": "{{current}} / {{max}}",
    "language.en": "English",
  })).toEqual(["admin.loadFailed"]);
});

test("both dictionaries name the same keys", () => {
  expect(Object.keys(en).sort()).toEqual(Object.keys(ru).sort());
});
