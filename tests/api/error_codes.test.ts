/*
 * Every answer carries a precise code of the catalogue with its status and the English
 * message, whether a SQL function, a route or a schema refused; the interface finds its
 * Russian words by that code.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { ERROR_CODES, type ErrorCode, type ErrorParams } from "../../contract/error_codes.ts";
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

/**
 * The answer is the code's: its status, the given message, the names and numbers it carries as
 * params, and Russian words found by the code and filled from those params.
 */
function expectAnswer(
  res: { status: number; json: { message: string; code: string; params?: ErrorParams } },
  code: ErrorCode,
  message: string,
  params?: ErrorParams,
) {
  expect(res.json).toEqual({ message, code, ...(params && { params }) });
  expect(res.status).toBe(ERROR_CODES[code].status);
  const shown = errorText(translator(DICTIONARIES.ru), res.json.code, res.json.params);
  expect(shown).toBe(errorText(translator(DICTIONARIES.ru), code, params));
  expect(shown).toMatch(/[а-я]/);
  // the words name what the English named, where the dictionary has a place for it
  for (const [name, value] of Object.entries(params ?? {})) if (DICTIONARIES.ru[code]?.includes(`{{${name}}}`)) expect(shown).toContain(String(value));
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
    { platform: "VK" },
  );
});

test("a SQL function's refusal with names and numbers answers them as params", async () => {
  // the projects' quota is a SQL rule whose message the function formats with the limit
  const owner = (await stack.signIn(uniqueEmail("quota"))).cookie;
  const max = stack.config.limits.projectsPerAccount;
  for (let i = 0; i < max; i++) {
    expect((await stack.call("POST", "/api/projects", { name: `P${i}`, adminHandle: "codes_admin" }, owner)).status).toBe(201);
  }
  expectAnswer(
    await stack.call("POST", "/api/projects", { name: "One more", adminHandle: "codes_admin" }, owner),
    "projects.quotaReached",
    `An account can have at most ${max} projects. Delete one you no longer need.`,
    { max },
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
