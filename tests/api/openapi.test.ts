/*
 * GET /api/openapi.json (docs/api.md): an OpenAPI 3.1 document that passes a standard
 * validator, holds every public route the app serves with the body and query its route
 * checks, the status its handler answers and a schema of its answer, names every error code,
 * and describes answers the API really gives: real answers of every route file are read
 * against the document's own schema with a JSON Schema validator (ajv, the one the OpenAPI
 * validator uses).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ERROR_CODES } from "../../contract/error_codes.ts";
import { ANSWERS, FORMS, QUERIES, UNDOCUMENTED } from "../../api/openapi.ts";
import { makePng } from "../helpers/images.ts";
import { approvalPreview, approverQuestion, buttonsOf, press } from "../helpers/publishing.ts";
import { codeFrom } from "../helpers/smtp.ts";
import { tokenFrom } from "../helpers/team.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

const ADMIN = uniqueEmail("docs");
const METRICS_TOKEN = "metrics-token-for-the-document";

let stack: Stack;
// deno-lint-ignore no-explicit-any
let doc: any;
beforeAll(async () => {
  stack = await startStack({
    openai: true,
    telegram: true,
    env: { ADMIN_EMAILS: ADMIN, WEBHOOKS_ALLOW_PRIVATE: "true", METRICS_TOKEN },
  });
  doc = (await stack.call("GET", "/api/openapi.json")).json;
});
afterAll(() => stack.close());

/** Hono's "/api/projects/:projectId" as the document writes it. */
const docPath = (path: string) => path.replace(/\/$/, "").replace(/:(\w+)(\{[^}]*\})?/g, "{$1}") || "/";

/** The routes the document must hold, each with its handler (the last function Hono registered for it). */
function servedRoutes() {
  const served = new Map<string, unknown>();
  for (const r of stack.app.routes) {
    if (r.method === "ALL" || UNDOCUMENTED.some((pattern) => pattern.test(r.path))) continue;
    served.set(`${r.method.toLowerCase()} ${docPath(r.path)}`, r.handler);
  }
  return served;
}

type Operation = { responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> };
const operations = (): [string, Operation][] =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops as Record<string, Operation>).map(([m, op]): [string, Operation] => [`${m} ${path}`, op]));
const successes = (op: Operation) => Object.keys(op.responses).filter((status) => /^2\d\d$/.test(status));

test("the document validates as OpenAPI 3.1 and needs no session", async () => {
  const answer = await stack.call("GET", "/api/openapi.json");
  expect(answer.status).toBe(200);
  expect(answer.json.openapi).toBe("3.1.0");
  const result = await new Validator().validate(answer.json);
  expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
  expect(result.valid).toBe(true);
});

test("every public route is in it, with the body and query its route checks, and every error code", () => {
  const served = new Set(servedRoutes().keys());
  const documented = new Set(operations().map(([key]) => key));
  expect([...served].filter((r) => !documented.has(r)), "routes missing from the document").toEqual([]);
  expect([...documented].filter((r) => !served.has(r)), "documented routes the app does not serve").toEqual([]);
  expect(served.size).toBeGreaterThan(60);

  // the body of drafts' create is the contract's schema: a required title, the catalogue's limits
  const create = doc.paths["/api/projects/{projectId}/drafts"].post;
  expect(create.requestBody.content["application/json"].schema.properties).toHaveProperty("title");
  expect(create.parameters.map((p: { name: string }) => p.name)).toContain("Idempotency-Key");
  expect(doc.paths["/api/projects/{projectId}/drafts/{draftId}"].patch.parameters.map((p: { name: string }) => p.name)).toContain("If-Match");
  expect(doc.paths["/api/projects/{projectId}/invitations"].post.requestBody.content["application/json"].schema.properties.role.enum)
    .toEqual(["owner", "editor", "author", "viewer"]);
  // bodies read optionally are there too, marked optional: deleting a post, resending its preview
  const removal = doc.paths["/api/projects/{projectId}/posts/{postId}"].delete.requestBody;
  expect(removal.required).toBe(false);
  expect(Object.keys(removal.content["application/json"].schema.properties)).toEqual(["deleteFromChannels", "deleteRecurringSeries"]);
  expect(doc.paths["/api/projects/{projectId}/posts/{postId}/resend"].post.requestBody.content["application/json"].schema.properties)
    .toHaveProperty("scheduledFor");
  // multipart uploads name their file
  expect(doc.paths["/api/projects/{projectId}/upload-image"].post.requestBody.content["multipart/form-data"].schema.required).toEqual(["image"]);
  // queries: the calendar's range and view, Published's page
  const query = (path: string) =>
    doc.paths[path].get.parameters.filter((p: { in: string }) => p.in === "query").map((p: { name: string }) => p.name);
  expect(query("/api/projects/{projectId}/posts")).toEqual(["from", "to", "view"]);
  expect(doc.paths["/api/projects/{projectId}/posts"].get.parameters.find((p: { name: string }) => p.name === "view").schema.enum).toEqual(["calendar"]);
  expect(query("/api/projects/{projectId}/posts/published")).toEqual(["limit", "before", "beforeId"]);
  expect(query("/api/projects/{projectId}/drafts")).toEqual(["view"]);
  expect([...doc.components.schemas.Error.properties.code.enum].sort()).toEqual(Object.keys(ERROR_CODES).sort());
});

test("what the document is made of names only routes the app serves", () => {
  const served = new Set(servedRoutes().keys());
  const named = [...Object.keys(ANSWERS), ...Object.keys(QUERIES), ...Object.keys(FORMS)]
    .map((key) => `${key.split(" ")[0].toLowerCase()} ${docPath(key.split(" ")[1])}`);
  expect(named.filter((key) => !served.has(key)), "entries for routes that are gone").toEqual([]);
});

test("every operation answers the status its handler sends, with a schema of the answer", () => {
  const handlers = servedRoutes();
  const wrong: string[] = [];
  for (const [key, op] of operations()) {
    // the handler's own words: `c.json(row, 201)` creates; an answer that names no status is a 200
    const expected = /,\s*(20[1-9])\s*\)/.exec(String(handlers.get(key)))?.[1] ?? "200";
    if (successes(op).join() !== expected) wrong.push(`${key}: ${successes(op).join() || "no success"}, the handler answers ${expected}`);
    const content = op.responses[expected]?.content;
    if (!content) {
      wrong.push(`${key}: no answer described`);
      continue;
    }
    for (const [media, { schema }] of Object.entries(content)) {
      if (media !== "application/json") continue;
      const described = schema?.type === "array" ? schema.items as Record<string, unknown> : schema;
      const generic = !described || Object.keys(described).length === 0 || JSON.stringify(described.type) === '["object","array"]' ||
        (described.type === "object" && !described.properties && !described.additionalProperties);
      if (generic) wrong.push(`${key}: a generic answer schema`);
    }
  }
  expect(wrong).toEqual([]);
});

// ---- real answers against the document

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const checked = new Set<string>();

type Answer = { status: number; json: unknown; text: string; headers: Headers };

/** Reads one real answer against the document's schema for its operation and status. */
function described(method: string, path: string, answer: Answer) {
  // the template that fits with the fewest parameters: "/drafts/reorder" is not "/drafts/{draftId}"
  const params = (p: string) => p.split("{").length;
  const template = Object.keys(doc.paths)
    .filter((p) => new RegExp(`^${p.replace(/\{\w+\}/g, "[^/]+")}$`).test(path.split("?")[0]))
    .sort((a, b) => params(a) - params(b))[0];
  expect(template, `${method} ${path} is documented`).toBeDefined();
  const key = `${method.toLowerCase()} ${template}`;
  const op = doc.paths[template!][method.toLowerCase()] as Operation;
  expect(op, key).toBeDefined();
  expect(successes(op), `${key} answered ${answer.status}: ${answer.text.slice(0, 300)}`).toContain(String(answer.status));
  const content = op.responses[String(answer.status)].content!;
  const type = answer.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) {
    const validate = ajv.compile({ ...content["application/json"].schema, components: doc.components });
    expect.soft(validate(answer.json) ? [] : validate.errors, `${key}: ${answer.text.slice(0, 500)}`).toEqual([]);
  } else {
    expect(Object.keys(content).map((media) => media.split(";")[0]), key).toContain(type.split(";")[0]);
  }
  checked.add(key);
  return answer;
}

async function call(method: string, path: string, body?: unknown, cookie?: string, extra: Record<string, string> = {}) {
  return described(method, path, await stack.call(method, path, body, cookie, extra));
}

async function form(path: string, fields: Record<string, string | File>, cookie: string) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  const answer = await stack.app.request(path, { method: "POST", body: data, headers: { cookie } });
  const text = await answer.text();
  return described("POST", path, { status: answer.status, json: text ? JSON.parse(text) : undefined, text, headers: answer.headers });
}

async function raw(path: string, headers: Record<string, string>) {
  const answer = await stack.app.request(path, { headers });
  return described("GET", path, { status: answer.status, json: undefined, text: "", headers: answer.headers });
}

test("the answers it describes are the answers the API gives, route file by route file", async () => {
  const { cookie } = await stack.signIn(ADMIN);
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

  // the account, health, notifications, the admin dashboard
  await call("GET", "/api/health");
  await call("GET", "/api/auth/user", undefined, cookie);
  await call("PUT", "/api/auth/language", { language: "en" }, cookie);
  await call("GET", "/api/notifications", undefined, cookie);
  await call("PATCH", "/api/notifications", { queueLow: false }, cookie);

  // projects
  const project = (await call("POST", "/api/projects", { name: "Documented", adminHandle: "docs_admin" }, cookie)).json as { id: number };
  const base = `/api/projects/${project.id}`;
  await call("GET", "/api/projects", undefined, cookie);
  await call("GET", "/api/projects/overview", undefined, cookie);
  await call("GET", base, undefined, cookie);
  await call("PATCH", base, { description: "What the document says" }, cookie);

  // drafts
  const imageUrl = (await form(`${base}/upload-image`, { image: new File([makePng(32, 24)], "a.png", { type: "image/png" }) }, cookie)).json as {
    imageUrl: string;
  };
  await raw(imageUrl.imageUrl, { cookie });
  const draft = (await call("POST", `${base}/drafts`, {
    title: "Described", content: "**bold** text", imageUrl: imageUrl.imageUrl,
    ad: { advertiser: "Acme", erid: "abc123", topMinutes: 60, feedMinutes: 0, price: { amount: 100, currency: "RUB" } },
    options: { pin: true, buttons: [[{ text: "Open", url: "https://example.com" }]] },
  }, cookie, { "Idempotency-Key": "docs-draft" })).json as { id: number };
  const more = (await call("POST", `${base}/drafts/bulk`, { titles: ["Second", "Third", "Fourth"] }, cookie)).json as { id: number }[];
  await call("GET", `${base}/drafts`, undefined, cookie);
  await call("GET", `${base}/drafts?view=list`, undefined, cookie);
  await call("GET", `${base}/drafts/${draft.id}`, undefined, cookie);
  await call("PATCH", `${base}/drafts/${draft.id}`, { title: "Described again" }, cookie);
  await call("POST", `${base}/drafts/${more[2].id}/move`, { afterId: null }, cookie);
  await call("POST", `${base}/drafts/reorder`, { drafts: [{ id: more[0].id, order: 5 }] }, cookie);
  await call("DELETE", `${base}/drafts/${more[2].id}`, undefined, cookie);

  // webhooks: an endpoint that refuses, so its deliveries stay in the log
  const webhook = (await call("POST", `${base}/webhooks`, { url: "http://127.0.0.1:9/hook", events: ["post.scheduled", "draft.created"] }, cookie))
    .json as { id: number };
  await call("POST", `${base}/drafts`, { title: "Delivered" }, cookie);
  await call("GET", `${base}/webhooks`, undefined, cookie);
  await call("PATCH", `${base}/webhooks/${webhook.id}`, { events: ["post.scheduled", "draft.created", "post.deleted"] }, cookie);
  const deliveries = (await call("GET", `${base}/webhooks/${webhook.id}/deliveries`, undefined, cookie)).json as { id: number }[];
  expect(deliveries.length).toBeGreaterThan(0);
  await call("POST", `${base}/webhooks/${webhook.id}/deliveries/${deliveries[0].id}/redeliver`, undefined, cookie);

  // posts: a one-off, a series, the calendar's lean view, Published
  const post = (await call("POST", `${base}/posts`, { draftId: draft.id, scheduledFor: day(2) }, cookie)).json as { id: number };
  const series = (await call("POST", `${base}/posts`, { draftId: more[0].id, scheduledFor: day(1), recurringType: "daily", title: "Daily" }, cookie))
    .json as { id: number; scheduledFor: string };
  await call("POST", `${base}/posts/${series.id}/skip`, { at: new Date(Date.parse(series.scheduledFor) + 86_400_000).toISOString() }, cookie);
  await call("GET", `${base}/posts`, undefined, cookie);
  await call("GET", `${base}/posts?from=${day(-1)}&to=${day(10)}&view=calendar`, undefined, cookie);
  await call("GET", `${base}/posts/published?limit=10`, undefined, cookie);
  await call("GET", `${base}/posts/${post.id}`, undefined, cookie);
  await call("PUT", `${base}/posts/${post.id}`, { draftId: draft.id, scheduledFor: day(3), title: "Moved" }, cookie);

  // review and comments: an author's post waits for review
  const invited = uniqueEmail("author");
  await call("POST", `${base}/invitations`, { email: invited, role: "author" }, cookie);
  const mail = await stack.smtp.waitForMail(invited);
  const author = await stack.signIn(invited);
  await call("POST", `/api/invitations/${tokenFrom(mail.text)}/accept`, undefined, author.cookie);
  const authored = (await call("POST", `${base}/posts`, { draftId: more[1].id, scheduledFor: day(4) }, author.cookie)).json as { id: number };
  await call("GET", `${base}/posts/review`, undefined, cookie);
  const comment = (await call("POST", `${base}/posts/${authored.id}/comments`, { text: "Shorter, please" }, cookie)).json as { id: number };
  await call("GET", `${base}/posts/${authored.id}/comments`, undefined, author.cookie);
  await call("PATCH", `${base}/posts/${authored.id}/comments/${comment.id}`, { text: "Much shorter" }, cookie);
  await call("DELETE", `${base}/posts/${authored.id}/comments/${comment.id}`, undefined, cookie);
  await call("POST", `${base}/posts/${authored.id}/review`, { decision: "return", comment: "Not yet" }, cookie);

  // the team
  await call("GET", `${base}/members`, undefined, cookie);
  await call("PATCH", `${base}/members/${author.user.id}`, { role: "editor" }, cookie);
  await call("DELETE", `${base}/members/${author.user.id}`, undefined, cookie);
  const invitation = (await call("POST", `${base}/invitations`, { email: uniqueEmail("later"), role: "viewer" }, cookie)).json as { id: number };
  await call("DELETE", `${base}/invitations/${invitation.id}`, undefined, cookie);
  await call("GET", `${base}/activity?limit=20`, undefined, cookie);

  // channels and their statistics (no channel yet: empty lists, a report of nothing)
  await call("GET", `${base}/channels`, undefined, cookie);
  await call("GET", "/api/telegram/bot", undefined, cookie);
  await call("GET", `${base}/invite-links`, undefined, cookie);
  await call("GET", `${base}/stats`, undefined, cookie);
  await call("GET", `${base}/ads?from=${day(-30)}&to=${day(30)}`, undefined, cookie);

  // the content plan
  const plan = (await call("POST", `${base}/content-plans`, { dayOfWeek: 1, time: "10:00", timezone: "UTC", postLength: 800, active: true }, cookie)).json as { id: number };
  await call("GET", `${base}/content-plans`, undefined, cookie);
  await call("GET", `${base}/content-plans/suggested-times`, undefined, cookie);
  await call("PATCH", `${base}/content-plans/${plan.id}`, { active: false }, cookie);
  await call("GET", `${base}/queue-health`, undefined, cookie);
  await call("DELETE", `${base}/content-plans/${plan.id}`, undefined, cookie);

  // AI, against the local OpenAI double
  await call("POST", `${base}/generate-title`, undefined, cookie);
  await call("POST", `${base}/generate-post`, { title: "A post about documents" }, cookie);
  await call("POST", `${base}/chat`, { message: "Hello" }, cookie);
  await call("POST", `${base}/chat/stream`, { message: "Hello again" }, cookie);
  stack.openai!.reply(() => "1. First title\n2. Second title");
  await call("POST", `${base}/generate-multiple-titles`, { count: 2 }, cookie);
  stack.openai!.reset();
  await call("GET", `${base}/chat/history?limit=10`, undefined, cookie);
  const job = (await call("POST", `${base}/drafts/generate-content`, { draftIds: [more[1].id] }, cookie)).json as { jobId: number };
  await call("GET", `${base}/jobs/${job.jobId}`, undefined, cookie);

  // tokens
  const token = (await call("POST", "/api/tokens", { name: "Docs", scopes: ["read"] }, cookie)).json as { id: number };
  await call("GET", "/api/tokens", undefined, cookie);
  await call("PATCH", `/api/tokens/${token.id}`, { name: "Docs reader" }, cookie);
  await call("DELETE", `/api/tokens/${token.id}`, undefined, cookie);

  // bug reports and the admin dashboard
  const report = (await form("/api/bug-reports", { description: "The button is grey", pageUrl: "/projects" }, cookie)).json as { id: number };
  await call("GET", "/api/admin/stats", undefined, cookie);
  await call("GET", "/api/admin/users?limit=5", undefined, cookie);
  await call("GET", "/api/admin/bug-reports", undefined, cookie);
  await call("PATCH", `/api/admin/bug-reports/${report.id}`, { status: "resolved" }, cookie);
  await raw("/metrics", { authorization: `Bearer ${METRICS_TOKEN}` });

  // removals last
  await call("DELETE", `${base}/posts/${post.id}`, { deleteFromChannels: false }, cookie);
  await call("DELETE", `${base}/webhooks/${webhook.id}`, undefined, cookie);
  await call("DELETE", base, undefined, cookie);
  await call("POST", "/api/auth/logout", undefined, author.cookie);
  const leaving = uniqueEmail("leaving");
  await call("POST", "/api/auth/request-otp", { email: leaving });
  const signedIn = await call("POST", "/api/auth/verify-otp", { email: leaving, code: codeFrom(await stack.smtp.waitForMail(leaving)) });
  await call("DELETE", "/api/auth/user", undefined, signedIn.headers.get("set-cookie")!.split(";")[0]);

  // at least one route of every route file was read against the document
  for (
    const key of [
      "post /api/projects", "get /api/projects/{projectId}/drafts", "get /api/projects/{projectId}/posts",
      "get /api/projects/{projectId}/posts/published", "get /api/projects/{projectId}/channels", "get /api/projects/{projectId}/content-plans",
      "get /api/projects/{projectId}/stats", "get /api/projects/{projectId}/ads", "get /api/projects/{projectId}/activity",
      "get /api/projects/{projectId}/members", "post /api/projects/{projectId}/invitations", "post /api/projects/{projectId}/posts/{postId}/comments",
      "get /api/projects/{projectId}/posts/review", "post /api/projects/{projectId}/webhooks", "get /api/projects/{projectId}/webhooks/{webhookId}/deliveries",
      "get /api/tokens", "get /api/notifications", "get /api/auth/user", "get /api/projects/{projectId}/chat/history", "post /api/bug-reports",
      "get /api/admin/users", "get /api/uploads/{key}", "get /api/health", "get /metrics",
    ]
  ) expect(checked, key).toContain(key);
  expect(checked.size).toBeGreaterThan(75);
}, 120_000);

test("with a channel: connecting it, its invite links, publishing and the owner's answers read as the document says", async () => {
  const telegram = stack.telegram!;
  const { cookie } = await stack.signIn(uniqueEmail("channel"));
  const admin = telegram.addUser({ username: "docs_channel_admin", first_name: "Admin", language_code: "en", startedBot: true });
  await stack.sql`select app_public.record_admin_chat(${"docs_channel_admin"}, ${admin.id})`;
  const tg = telegram.addChannel({ username: "docs_channel", title: "Channel", owner: admin.id });
  const project = (await call("POST", "/api/projects", { name: "Channel", adminHandle: "docs_channel_admin" }, cookie)).json as { id: number };
  const base = `/api/projects/${project.id}`;
  const channel = (await call("POST", `${base}/channels`, { type: "telegram", link: "@docs_channel" }, cookie)).json as { id: number };
  const question = await approverQuestion(stack, admin.id);
  await press(stack, admin.id, admin.id, question.message_id, buttonsOf(question)[0]!);
  await call("GET", `${base}/channels`, undefined, cookie);
  await call("GET", `${base}/stats`, undefined, cookie);

  const link = (await call("POST", `${base}/invite-links`, { name: "Spring" }, cookie)).json as { id: number };
  await call("DELETE", `${base}/invite-links/${link.id}`, undefined, cookie);

  const [first, second] = (await call("POST", `${base}/drafts/bulk`, { titles: ["Sent for approval", "Uncertain"] }, cookie)).json as { id: number }[];
  const post = (await call("POST", `${base}/posts`, { draftId: first.id, scheduledFor: new Date(Date.now() + 3_600_000).toISOString() }, cookie))
    .json as { id: number };
  await call("POST", `${base}/posts/${post.id}/publish`, undefined, cookie);
  await approvalPreview(stack, { admin, base, cookie, channel: tg } as Parameters<typeof approvalPreview>[1], post.id);
  await call("POST", `${base}/posts/${post.id}/resend`, undefined, cookie);

  // a post whose fate Telegram left unknown: the owner says it is in the channel
  const uncertain = (await call("POST", `${base}/posts`, { draftId: second.id, scheduledFor: new Date(Date.now() + 7_200_000).toISOString() }, cookie))
    .json as { id: number };
  await stack.sql`update app_public.posts set status = 'uncertain', channel_chat_id = ${tg.id}, approved_chat_id = ${tg.id} where id = ${uncertain.id}`;
  await call("POST", `${base}/posts/${uncertain.id}/resolve`, { inChannel: true }, cookie);

  await call("DELETE", `${base}/channels/${channel.id}`, undefined, cookie);
  // with the test above, every operation of the document was read against a real answer
  expect(operations().map(([key]) => key).filter((key) => !checked.has(key))).toEqual([]);
}, 120_000);

