/*
 * One catalogue of error codes (contract/error_codes.ts): every code has words in both
 * dictionaries, the dictionaries' keys are identifiers (never an English sentence that
 * rewording would orphan), and every code SQL, TypeScript and the schemas use is in it.
 */
import * as v from "valibot";
import { expect, test } from "vitest";
import * as aiContract from "../../contract/ai.ts";
import * as authContract from "../../contract/auth.ts";
import * as bugReportsContract from "../../contract/bug_reports.ts";
import * as channelsContract from "../../contract/channels.ts";
import * as draftsContract from "../../contract/drafts.ts";
import { ERROR_CODES, type ErrorCode, errorParams, isErrorCode } from "../../contract/error_codes.ts";
import * as postsContract from "../../contract/posts.ts";
import * as projectsContract from "../../contract/projects.ts";
import { SQL_ERRORS } from "../../core/errors.ts";
import { ApiRequestError } from "../../web/src/api/fetcher.ts";
import { errorText, serverMessage } from "../../web/src/lib/messages.ts";
import { DICTIONARIES, translator } from "../helpers/i18n.ts";

const ROOT = new URL("../../", import.meta.url);
const CODES = Object.keys(ERROR_CODES) as ErrorCode[];
const dictionaries = DICTIONARIES;

/** The files under `dir` (relative to the repository) whose names end with one of `endings`. */
async function sources(dir: string, endings: string[]): Promise<{ path: string; text: string }[]> {
  const found: { path: string; text: string }[] = [];
  for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await sources(path, endings));
    else if (endings.some((ending) => entry.name.endsWith(ending))) found.push({ path, text: await Deno.readTextFile(new URL(path, ROOT)) });
  }
  return found;
}

const placeholders = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]);

test("every code has Russian and English words that fill only the names its message carries", () => {
  // The channel dialog adds the bot's name, which no message carries.
  const givenByTheInterface = new Set(["bot"]);
  for (const code of CODES) {
    const known = new Set([...placeholders(ERROR_CODES[code].message, /\{(\w+)\}/g), ...Object.keys(errorParams(code)), ...givenByTheInterface]);
    for (const [language, dictionary] of Object.entries(dictionaries)) {
      const text = dictionary[code];
      expect(text, `${language}: ${code}`).toBeTruthy();
      for (const name of placeholders(text, /\{\{(\w+)\}\}/g)) expect(known.has(name), `${language}: ${code} {{${name}}}`).toBe(true);
    }
    expect(dictionaries.ru[code], code).toMatch(/[а-яё]/i);
  }
  expect(CODES.length).toBeGreaterThan(100);
});

test("no dictionary key is a sentence: keys are dotted identifiers", () => {
  for (const [language, dictionary] of Object.entries(dictionaries)) {
    for (const key of Object.keys(dictionary)) expect(key, language).toMatch(/^[A-Za-z0-9]+(\.[A-Za-z0-9_]+)*$/);
  }
});

/** Every `raise exception` of sql/functions/*.sql: its message literal, SQLSTATE and hint. */
async function raises() {
  const found: { path: string; message: string; sqlState?: string; hint?: string }[] = [];
  for (const { path, text } of await sources("sql/functions", [".sql"])) {
    for (const start of text.matchAll(/raise exception '/gi)) {
      let i = start.index + start[0].length;
      let message = "";
      while (!(text[i] === "'" && text[i + 1] !== "'")) {
        message += text[i];
        i += text[i] === "'" ? 2 : 1;
      }
      let end = i + 1;
      for (let quoted = false; quoted || text[end] !== ";"; end++) if (text[end] === "'") quoted = !quoted;
      const using = text.slice(i + 1, end);
      found.push({ path, message, sqlState: /errcode\s*=\s*'(\w+)'/i.exec(using)?.[1], hint: /hint\s*=\s*'([^']*)'/i.exec(using)?.[1] });
    }
  }
  return found;
}

test("every raise in sql/functions names a catalogue code in its hint, with the code's message and status", async () => {
  const all = await raises();
  expect(all.length).toBeGreaterThan(50);
  for (const { path, message, sqlState, hint } of all) {
    const where = `${path}: ${message}`;
    expect(isErrorCode(hint), `${where}: hint ${hint}`).toBe(true);
    if (hint === "internal") continue; // a programming error, never answered as such
    expect(sqlState && sqlState in SQL_ERRORS, `${where}: SQLSTATE ${sqlState} is not in core/errors.ts`).toBe(true);
    const code = hint as ErrorCode;
    expect(ERROR_CODES[code].status, where).toBe(ERROR_CODES[SQL_ERRORS[sqlState!]].status);
    // The SQL's words are answered as they are: they read as the code's message.
    expect(message.replace(/%/g, "…"), where).toBe(ERROR_CODES[code].message.replace(/\{\w+\}/g, "…"));
  }
});

test("every code TypeScript raises or compares is in the catalogue", async () => {
  const files = [
    ...await sources("api", [".ts"]),
    ...await sources("core", [".ts"]),
    ...await sources("tasks", [".ts"]),
    ...await sources("bot", [".ts"]),
    ...await sources("web/src", [".ts", ".tsx"]),
  ];
  const used = new Map<string, string>();
  for (const { path, text } of files) {
    for (const m of text.matchAll(/new ApiError\(\s*"([^"]+)"/g)) used.set(m[1], path);
    for (const m of text.matchAll(/hasCode\(([^)]*)\)/g)) for (const s of m[1].matchAll(/"([^"]+)"/g)) used.set(s[1], path);
    if (path.startsWith("web/")) for (const m of text.matchAll(/(?<!typeof )\bcode [!=]== "([^"]+)"/g)) used.set(m[1], path);
  }
  expect(used.size).toBeGreaterThan(30);
  for (const [code, path] of used) expect(isErrorCode(code), `${path}: ${code}`).toBe(true);
});

/** Every message a valibot schema (or one of its actions) names, however deeply nested. */
function schemaMessages(node: unknown, found = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (typeof node !== "object" || node === null || seen.has(node)) return found;
  seen.add(node);
  const item = node as Record<string, unknown>;
  if (!("kind" in item)) return found;
  if (typeof item.message === "string") found.add(item.message);
  for (const child of [item.wrapped, item.item, item.rest, ...(Array.isArray(item.pipe) ? item.pipe : [])]) schemaMessages(child, found, seen);
  if (Array.isArray(item.options)) for (const option of item.options) schemaMessages(option, found, seen);
  if (typeof item.entries === "object" && item.entries) for (const entry of Object.values(item.entries)) schemaMessages(entry, found, seen);
  return found;
}

test("the shared schemas' messages are catalogue codes", () => {
  const messages = new Set<string>();
  for (const contract of [aiContract, authContract, bugReportsContract, channelsContract, draftsContract, postsContract, projectsContract]) {
    for (const value of Object.values(contract)) schemaMessages(value, messages);
  }
  expect(messages.size).toBeGreaterThan(40);
  for (const message of messages) expect(isErrorCode(message), message).toBe(true);
  // a refusal inside a transform is not reachable by walking: asked directly
  const style = v.safeParse(projectsContract.WritingStyleSchema, "{oops");
  expect(style.issues?.[0].message).toBe("projects.writingStyleInvalid");
});

test("the interface says a server answer by its code, with the answer's names and numbers", () => {
  const t = translator(dictionaries.ru);
  const answer = (status: number, code: string, message: string, params?: Record<string, string | number>) =>
    new ApiRequestError(status, JSON.stringify({ message, code, params }), { message, code, ...(params && { params }) });
  expect(serverMessage(t, answer(404, "drafts.notFound", "Draft not found"))).toBe(DICTIONARIES.ru["drafts.notFound"]);
  const quota = serverMessage(t, answer(409, "drafts.quotaReached", "A project can have at most 50 drafts. Delete drafts you no longer need.", { max: 50 }));
  expect(quota).toBe(DICTIONARIES.ru["drafts.quotaReached"].replace("{{max}}", "50"));
  expect(serverMessage(t, answer(400, "schedule.captionTooLong", "schedule.captionTooLong: 5000/4096", { current: 5000, max: 4096 }))).toContain("5000/4096");
  // a code without words (another server's, a newer one) shows its message as it is
  expect(serverMessage(t, answer(418, "teapot.brewing", "I'm a teapot"))).toBe("I'm a teapot");
  // a form's code (a schema's message) takes its numbers from the catalogue
  expect(errorText(t, "projects.nameTooLong")).toBe("Название проекта — не длиннее 100 символов");
  expect(errorText(translator(dictionaries.en), "auth.codeLength")).toBe("String must contain exactly 6 character(s)");
});

test("a reworded English message leaves the interface's words as they were: they come from the code and params", () => {
  for (const [language, dictionary] of Object.entries(dictionaries)) {
    const t = translator(dictionary);
    const cases: [string, string, Record<string, string | number>][] = [
      ["drafts.quotaReached", "A project can have at most 50 drafts. Delete drafts you no longer need.", { max: 50 }],
      ["channels.alreadyConnected", "@city_news is already connected in another project or account. It must be disconnected there first.", { channel: "@city_news" }],
      ["channels.approverRefused", "@olga_admin has refused requests from this account", { handle: "olga_admin" }],
    ];
    for (const [code, message, params] of cases) {
      const asSent = serverMessage(t, new ApiRequestError(409, message, { message, code, params }));
      // the same answer after the server's English was rewritten from end to end
      const reworded = serverMessage(t, new ApiRequestError(409, "x", { message: "Entirely new English wording.", code, params }));
      expect(reworded, `${language}: ${code}`).toBe(asSent);
      for (const value of Object.values(params)) expect(asSent, `${language}: ${code}`).toContain(String(value));
    }
  }
});

test("a generation job's failure is its code, worded in the interface language", () => {
  const t = translator(dictionaries.ru);
  expect(errorText(t, "ai.notConfigured")).toBe(DICTIONARIES.ru["ai.notConfigured"]);
  expect(errorText(t, "ai.dailyBudgetSpent")).toBe(DICTIONARIES.ru["ai.dailyBudgetSpent"]);
});

test("the SPA never reads an English message back: no template reader, no pattern over a message", async () => {
  const files = await sources("web/src", [".ts", ".tsx"]);
  expect(files.length).toBeGreaterThan(100);
  const offences: string[] = [];
  for (const { path, text } of files) {
    // the catalogue's English, and any reader of names out of it
    for (const name of ["ERROR_CODES", "messageParams", "templateParams", "errorMessage("]) {
      if (text.includes(name) && !(name === "errorMessage(" && /export function errorMessage\(/.test(text))) offences.push(`${path}: ${name}`);
    }
    // a pattern applied to a server message: body.message / error.message / errorMessage(…) then match, test, exec, replace or search
    const pattern = /(?:\.message\b|errorMessage\([^)]*\))\s*(?:\?\.|\.)\s*(?:match|matchAll|replace|replaceAll|search|split)\(|\.(?:test|exec)\(\s*[\w.?]*\.message\b/g;
    for (const match of text.matchAll(pattern)) offences.push(`${path}: ${match[0]}`);
  }
  expect(offences).toEqual([]);
  // and the server floors keep the template reader to themselves: contract/ (which the SPA loads) has none
  const contract = await Deno.readTextFile(new URL("contract/error_codes.ts", ROOT));
  expect(contract).not.toMatch(/export function (templateParams|messageParams)/);
});
