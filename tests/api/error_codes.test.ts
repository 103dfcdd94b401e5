/*
 * Every answer carries a precise code of the catalogue with its status and the English
 * message, whether a SQL function, a route or a schema refused; the interface finds its
 * Russian words by that code.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../../contract/error_codes.ts";
import { errorText } from "../../web/src/lib/messages.ts";
import { DICTIONARIES, translator } from "../helpers/i18n.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
let cookie: string;
let base: string;
beforeAll(async () => {
  stack = await startStack();
  cookie = (await stack.signIn(uniqueEmail("codes"))).cookie;
  const project = await stack.call("POST", "/api/projects", { name: "Codes", adminHandle: "codes_admin" }, cookie);
  base = `/api/projects/${project.json.id}`;
});
afterAll(() => stack.close());

/** The answer is the code's: its status, the given message, and Russian words found by the code. */
function expectAnswer(res: { status: number; json: { message: string; code: string } }, code: ErrorCode, message: string) {
  expect(res.json).toEqual({ message, code });
  expect(res.status).toBe(ERROR_CODES[code].status);
  const shown = errorText(translator(DICTIONARIES.ru), res.json.code, res.json.message);
  expect(shown).toBe(errorText(translator(DICTIONARIES.ru), code));
  expect(shown).toMatch(/[а-я]/);
}

test("a SQL function's refusal names its precise code in the hint, with the function's words", async () => {
  expectAnswer(await stack.call("DELETE", `${base}/drafts/99999999`, undefined, cookie), "drafts.notFound", "Draft not found");
  const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
  expectAnswer(await stack.call("PUT", `${base}/posts/99999999`, { scheduledFor: inAnHour }, cookie), "posts.notFound", "Post not found");
});

test("a route's refusal has the catalogue's words, with the names its message is about", async () => {
  expectAnswer(
    await stack.call("POST", `${base}/drafts/generate-content`, { draftIds: [99999999] }, cookie),
    "ai.notConfigured",
    ERROR_CODES["ai.notConfigured"].message,
  );
  expectAnswer(
    await stack.call("POST", `${base}/channels`, { type: "vk", link: "@city_news" }, cookie),
    "channels.platformUnavailable",
    "VK is not available yet: only Telegram channels can be connected",
  );
});

test("a schema's refusal answers its code with the spec's words; one without a code says valibot's", async () => {
  expectAnswer(await stack.call("POST", "/api/projects", { adminHandle: "codes_admin" }, cookie), "projects.nameRequired", "Project name is required");
  expectAnswer(await stack.call("POST", "/api/auth/request-otp", { email: "nope" }), "auth.invalidEmail", "Invalid email");
  const unnamed = await stack.call("POST", `${base}/drafts/reorder`, { drafts: [{ id: "x", order: 0 }] }, cookie);
  expect(unnamed.status).toBe(400);
  expect(unnamed.json.code).toBe("validation");
  expect(unnamed.json.message).toMatch(/number/i);
});
