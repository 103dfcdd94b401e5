/*
 * GET /api/openapi.json (docs/api.md): an OpenAPI 3.1 document of every public route, made
 * from the app itself when it starts: the routes Hono registered; each JSON body from the very
 * valibot schema its route checks (body() and optionalBody() in api/validate.ts keep it on
 * their middleware); each route's success status and answer from contract/answers.ts (ANSWERS);
 * the queries from the schemas the routes parse; and the error body with every code of the
 * catalogue. tests/api/openapi.test.ts validates it, holds it to the app's routes and to the
 * status each handler sends, and reads real answers of every route file against it.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import type { GenericSchema } from "valibot";
import { ERROR_CODES } from "../contract/error_codes.ts";
import * as answers from "../contract/answers.ts";
import { ActivityQuery } from "../contract/activity.ts";
import { BugReportsQuery, UsersQuery } from "../contract/admin.ts";
import { ChatHistoryQuery } from "../contract/ai.ts";
import { BugReportFormSchema } from "../contract/bug_reports.ts";
import { DRAFT_LIST_VIEWS } from "../contract/drafts.ts";
import { POST_LIST_VIEWS, PostsRangeQuery, PublishedQuery } from "../contract/posts.ts";
import { StatsPeriodQuery } from "../contract/stats.ts";
import { EXPOSITION_CONTENT_TYPE } from "../core/metrics.ts";
import { REQUEST_BODY, type RequestBody } from "./validate.ts";
import { SESSION_COOKIE } from "./session_token.ts";

type RouteEntry = { method: string; path: string; handler: unknown };

/** Routes that are not the public API: Telegram's own door, the local sandbox, the catch-all. */
export const UNDOCUMENTED = [/^\/api\/telegram\/webhook/, /^\/api\/sandbox/, /\*$/, /^\/api\/openapi\.json$/, /^\/api\/mcp/, /^\/api\/docs\//];

type JsonSchema = Record<string, unknown>;

/** A valibot schema as JSON Schema, without the draft-07 `$schema` key: OpenAPI 3.1's dialect is its own. */
export const json = (schema: GenericSchema): JsonSchema => {
  const { $schema: _, ...rest } = toJsonSchema(schema, { errorMode: "ignore" }) as JsonSchema;
  return rest;
};

/**
 * A route's success: its status, and its JSON answer (one object, or `array` of them) or,
 * for the few that answer something else, the media types it sends. `revalidated`: a list
 * answered with an ETag (api/revalidate.ts), so also 304 without a body.
 */
type Answer =
  & { status: 200 | 201; revalidated?: boolean }
  & ({ schema: GenericSchema; array?: boolean } | { media: Record<string, JsonSchema | null>; description: string });

const ok = (schema: GenericSchema, array = false): Answer => ({ status: 200, schema, array });
const created = (schema: GenericSchema, array = false): Answer => ({ status: 201, schema, array });
const list = (schema: GenericSchema): Answer => ({ status: 200, schema, array: true, revalidated: true });
const done = ok(answers.OkAnswer);

/** What each route answers on success, by "METHOD path" as Hono registered it (tests/api/openapi.test.ts holds it whole). */
export const ANSWERS: Record<string, Answer> = {
  "GET /api/health": ok(answers.HealthAnswer),
  "POST /api/auth/request-otp": ok(answers.CodeRequestedAnswer),
  "POST /api/auth/verify-otp": ok(answers.SessionUserAnswer),
  "POST /api/auth/logout": done,
  "GET /api/auth/user": ok(answers.SessionUserAnswer),
  "DELETE /api/auth/user": done,
  "PUT /api/auth/language": done,
  "GET /api/projects": ok(answers.ProjectAnswer, true),
  "GET /api/projects/overview": ok(answers.ProjectOverviewAnswer, true),
  "POST /api/projects": created(answers.ProjectAnswer),
  "GET /api/projects/:id": ok(answers.ProjectAnswer),
  "PATCH /api/projects/:id": ok(answers.ProjectAnswer),
  "DELETE /api/projects/:id": done,
  "GET /api/projects/:projectId/drafts": list(v.union([answers.HeldDraftAnswer, answers.DraftSummaryAnswer])),
  "GET /api/projects/:projectId/drafts/:draftId": ok(answers.HeldDraftAnswer),
  "POST /api/projects/:projectId/drafts": created(answers.DraftAnswer),
  "POST /api/projects/:projectId/drafts/bulk": created(answers.DraftAnswer, true),
  "POST /api/projects/:projectId/drafts/reorder": done,
  "POST /api/projects/:projectId/drafts/:draftId/move": ok(answers.DraftMovedAnswer),
  "PATCH /api/projects/:projectId/drafts/:draftId": ok(answers.DraftAnswer),
  "DELETE /api/projects/:projectId/drafts/:draftId": done,
  "GET /api/projects/:projectId/channels": ok(answers.ChannelAnswer, true),
  "POST /api/projects/:projectId/channels": created(answers.ChannelAnswer),
  "DELETE /api/projects/:projectId/channels/:channelId": done,
  "GET /api/projects/:projectId/posts/review": ok(answers.PostAnswer, true),
  "POST /api/projects/:projectId/posts/:postId/review": ok(answers.PostAnswer),
  "GET /api/projects/:projectId/posts/:postId/comments": ok(answers.CommentAnswer, true),
  "POST /api/projects/:projectId/posts/:postId/comments": created(answers.CommentAnswer),
  "PATCH /api/projects/:projectId/posts/:postId/comments/:commentId": ok(answers.CommentAnswer),
  "DELETE /api/projects/:projectId/posts/:postId/comments/:commentId": done,
  "GET /api/projects/:projectId/posts": list(v.union([answers.PostAnswer, answers.CalendarPostAnswer])),
  "GET /api/projects/:projectId/posts/published": list(answers.PostAnswer),
  "GET /api/projects/:projectId/posts/:postId": ok(answers.PostAnswer),
  "POST /api/projects/:projectId/posts": created(answers.PostAnswer),
  "PUT /api/projects/:projectId/posts/:postId": ok(answers.PostAnswer),
  "DELETE /api/projects/:projectId/posts/:postId": ok(answers.PostDeletedAnswer),
  "POST /api/projects/:projectId/posts/:postId/skip": ok(answers.PostAnswer),
  "POST /api/projects/:projectId/posts/:postId/publish": ok(answers.PostAnswer),
  "POST /api/projects/:projectId/posts/:postId/resend": ok(answers.PostAnswer),
  "POST /api/projects/:projectId/posts/:postId/resolve": ok(answers.PostAnswer),
  "GET /api/projects/:projectId/content-plans": list(answers.ContentPlanAnswer),
  "POST /api/projects/:projectId/content-plans": created(answers.ContentPlanAnswer),
  "GET /api/projects/:projectId/content-plans/suggested-times": ok(answers.SuggestedTimesAnswer),
  "PATCH /api/projects/:projectId/content-plans/:planId": ok(answers.ContentPlanAnswer),
  "DELETE /api/projects/:projectId/content-plans/:planId": done,
  "GET /api/projects/:projectId/queue-health": ok(answers.QueueHealthAnswer),
  "GET /api/projects/:projectId/stats": ok(answers.ChannelStatsAnswer),
  "GET /api/projects/:projectId/invite-links": ok(answers.InviteLinkAnswer, true),
  "POST /api/projects/:projectId/invite-links": created(answers.InviteLinkAnswer),
  "DELETE /api/projects/:projectId/invite-links/:linkId": ok(answers.InviteLinkAnswer),
  "GET /api/projects/:projectId/ads": ok(answers.AdReportAnswer),
  "GET /api/projects/:projectId/members": ok(answers.MembersAnswer),
  "PATCH /api/projects/:projectId/members/:userId": ok(answers.MemberAnswer),
  "DELETE /api/projects/:projectId/members/:userId": done,
  "POST /api/projects/:projectId/invitations": created(answers.InvitationAnswer),
  "DELETE /api/projects/:projectId/invitations/:invitationId": done,
  "GET /api/projects/:projectId/activity": ok(answers.ActivityAnswer),
  "GET /api/projects/:projectId/webhooks": ok(answers.WebhookAnswer, true),
  "POST /api/projects/:projectId/webhooks": created(answers.CreatedWebhookAnswer),
  "PATCH /api/projects/:projectId/webhooks/:webhookId": ok(answers.WebhookAnswer),
  "DELETE /api/projects/:projectId/webhooks/:webhookId": done,
  "GET /api/projects/:projectId/webhooks/:webhookId/deliveries": ok(answers.WebhookDeliveryAnswer, true),
  "POST /api/projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/redeliver": ok(answers.WebhookDeliveryAnswer),
  "POST /api/invitations/:token/accept": ok(answers.InvitationAcceptedAnswer),
  "GET /api/notifications": ok(answers.NotificationSettingsAnswer),
  "PATCH /api/notifications": ok(answers.NotificationSettingsAnswer),
  "GET /api/tokens": ok(answers.TokenAnswer, true),
  "POST /api/tokens": created(answers.CreatedTokenAnswer),
  "PATCH /api/tokens/:tokenId": ok(answers.TokenAnswer),
  "DELETE /api/tokens/:tokenId": done,
  "POST /api/projects/:projectId/generate-title": ok(answers.TitleAnswer),
  "POST /api/projects/:projectId/generate-post": ok(answers.GeneratedPostAnswer),
  "POST /api/projects/:projectId/generate-multiple-titles": ok(answers.TitlesAnswer),
  "POST /api/projects/:projectId/drafts/generate-content": created(answers.GenerationJobAnswer),
  "GET /api/projects/:projectId/jobs/:jobId": ok(answers.GenerationJobAnswer),
  "GET /api/projects/:projectId/chat/history": ok(answers.ChatHistoryAnswer),
  "POST /api/projects/:projectId/chat": ok(answers.ChatReplyAnswer),
  "POST /api/projects/:projectId/chat/stream": {
    status: 200,
    description: "Server-sent events: `delta` {text} as the answer grows, then `done` (the reply as POST …/chat answers it) or `error` {message, code}",
    media: { "text/event-stream": { type: "string" } },
  },
  "GET /api/telegram/bot": ok(answers.BotAnswer),
  "POST /api/projects/:projectId/upload-image": created(answers.UploadedImageAnswer),
  "GET /api/uploads/:key": {
    status: 200,
    description: "The file's bytes, as uploaded (its type read from them)",
    media: { "image/png": null, "image/jpeg": null, "image/webp": null, "image/gif": null },
  },
  "POST /api/bug-reports": created(answers.BugReportCreatedAnswer),
  "GET /api/admin/stats": ok(answers.AdminStatsAnswer),
  "GET /api/admin/users": ok(answers.AdminUserAnswer, true),
  "GET /api/admin/bug-reports": ok(answers.BugReportAnswer, true),
  "PATCH /api/admin/bug-reports/:id": ok(answers.BugReportRowAnswer),
  "GET /metrics": {
    status: 200,
    description: "Prometheus' text exposition format (docs/operating.md \"Metrics\"); with `Authorization: Bearer <METRICS_TOKEN>`",
    media: { [EXPOSITION_CONTENT_TYPE]: { type: "string" } },
  },
};

/** The query a route reads: the schema it parses (or, for the periods, checks field by field with the same rules). */
export const QUERIES: Record<string, GenericSchema> = {
  "GET /api/projects/:projectId/activity": ActivityQuery,
  "GET /api/projects/:projectId/stats": StatsPeriodQuery,
  "GET /api/projects/:projectId/ads": StatsPeriodQuery,
  "GET /api/projects/:projectId/posts": v.object({ ...PostsRangeQuery.entries, view: v.optional(v.picklist(POST_LIST_VIEWS)) }),
  "GET /api/projects/:projectId/posts/published": PublishedQuery,
  "GET /api/projects/:projectId/drafts": v.object({ view: v.optional(v.picklist(DRAFT_LIST_VIEWS)) }),
  "GET /api/projects/:projectId/chat/history": ChatHistoryQuery,
  "GET /api/admin/users": UsersQuery,
  "GET /api/admin/bug-reports": BugReportsQuery,
};

/** Bodies sent as multipart forms (api/multipart.ts reads them): their text fields' schema, and their files. */
export const FORMS: Record<string, { fields?: GenericSchema; files: Record<string, boolean> }> = {
  "POST /api/projects/:projectId/upload-image": { files: { image: true } },
  "POST /api/bug-reports": { fields: BugReportFormSchema, files: { screenshot: false } },
};

const CREATES = new Set([
  "POST /api/projects/:projectId/drafts", "POST /api/projects/:projectId/drafts/bulk", "POST /api/projects/:projectId/posts",
  "POST /api/projects/:projectId/invitations", "POST /api/projects/:projectId/webhooks",
]);

/** Hono's "/api/uploads/:key" and "/x/:id{[0-9]+}" as OpenAPI's "/api/uploads/{key}". */
const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");

const operationId = (method: string, path: string) =>
  method.toLowerCase() + path.replace(/^\/api/, "").split(/[/{}:-]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join("");

function formSchema(form: (typeof FORMS)[string]): JsonSchema {
  const fields = form.fields ? json(form.fields) : { type: "object", properties: {}, required: [] };
  const files = Object.keys(form.files);
  return {
    ...fields,
    properties: { ...(fields.properties as object), ...Object.fromEntries(files.map((name) => [name, { type: "string", contentMediaType: "image/*" }])) },
    required: [...(fields.required as string[] ?? []), ...files.filter((name) => form.files[name])],
  };
}

function success(answer: Answer | undefined): Record<string, unknown> {
  // a route nobody described: no schema at all, which tests/api/openapi.test.ts refuses
  if (!answer) return { "200": { description: "Not described" } };
  const content = "media" in answer
    ? Object.fromEntries(Object.entries(answer.media).map(([type, schema]) => [type, schema ? { schema } : {}]))
    : { "application/json": { schema: answer.array ? { type: "array", items: json(answer.schema) } : json(answer.schema) } };
  return {
    [String(answer.status)]: { description: "media" in answer ? answer.description : answer.status === 201 ? "Created" : "Success", content },
    ...(answer.revalidated ? { "304": { description: "Not modified: the list is still the one whose ETag If-None-Match gave (no body)" } } : {}),
  };
}

export function openApiDocument(routes: readonly RouteEntry[], version: string) {
  const operations = new Map<string, { method: string; path: string; body?: RequestBody }>();
  for (const r of routes) {
    if (r.method === "ALL" || UNDOCUMENTED.some((pattern) => pattern.test(r.path))) continue;
    const path = r.path.length > 1 ? r.path.replace(/\/$/, "") : r.path;
    const key = `${r.method} ${path}`;
    const entry = operations.get(key) ?? { method: r.method, path };
    const body = (r.handler as { [REQUEST_BODY]?: RequestBody })[REQUEST_BODY];
    if (body) entry.body = body;
    operations.set(key, entry);
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, op] of operations) {
    const path = openApiPath(op.path);
    const parameters: unknown[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name, in: "path", required: true, schema: name === "key" || name === "token" ? { type: "string" } : { type: "integer", minimum: 1 },
    }));
    const query = QUERIES[key];
    if (query) {
      const properties = (json(query).properties ?? {}) as Record<string, unknown>;
      for (const [name, schema] of Object.entries(properties)) parameters.push({ name, in: "query", required: false, schema });
    }
    if (CREATES.has(key)) {
      parameters.push({ name: "Idempotency-Key", in: "header", required: false, schema: { type: "string", minLength: 1, maxLength: 255 } });
    }
    if (/^(PATCH|PUT) \/api\/projects\/:projectId\/(drafts\/:draftId|posts\/:postId)$/.test(key)) {
      parameters.push({ name: "If-Match", in: "header", required: false, schema: { type: "string" } });
    }
    const answer = ANSWERS[key];
    if (answer?.revalidated) parameters.push({ name: "If-None-Match", in: "header", required: false, schema: { type: "string" } });
    const form = FORMS[key];
    const requestBody = op.body
      ? { required: op.body.required, content: { "application/json": { schema: json(op.body.schema) } } }
      : form
      ? { required: true, content: { "multipart/form-data": { schema: formSchema(form) } } }
      : undefined;
    const operation: Record<string, unknown> = {
      operationId: operationId(op.method, path),
      summary: `${op.method} ${path}`,
      tags: [path.split("/")[2] ?? "api"],
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        ...success(answer),
        "4XX": { description: "Refused: the code says why (components.schemas.Error)", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        "5XX": { description: "A failure on Pressa's side or a provider's", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    };
    (paths[path] ??= {})[op.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Pressa API",
      version,
      description: "Every route the Pressa app uses. Authenticate with a personal token (Settings → API tokens): `Authorization: Bearer prs_…`. See docs/api.md.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }, { session: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A personal API token, prs_…" },
        session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "The SPA's session" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["message", "code"],
          properties: {
            message: { type: "string", description: "English words for people; clients decide by the code" },
            code: { type: "string", enum: Object.keys(ERROR_CODES).sort() },
            params: { type: "object", description: "The names and numbers the message carries" },
          },
        },
      },
    },
  };
}
