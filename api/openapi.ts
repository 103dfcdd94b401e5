/*
 * GET /api/openapi.json (docs/api.md): an OpenAPI 3.1 document of every public route, made
 * from the app itself when it starts: the routes Hono registered, each body from the very
 * valibot schema its validator checks (api/validate.ts keeps it on the validator), the main
 * answers from contract/answers.ts, and the error body with every code of the catalogue. So
 * the document cannot drift from what the routes check; tests/api/openapi.test.ts validates
 * it and holds it to the app's routes.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { GenericSchema } from "valibot";
import { ERROR_CODES } from "../contract/error_codes.ts";
import * as answers from "../contract/answers.ts";
import { ActivityQuery } from "../contract/activity.ts";
import { StatsPeriodQuery } from "../contract/stats.ts";
import { BODY_SCHEMA } from "./validate.ts";
import { SESSION_COOKIE } from "./session_token.ts";

type RouteEntry = { method: string; path: string; handler: unknown };

/** Routes that are not the public API: Telegram's own door, the local sandbox, the catch-all. */
export const UNDOCUMENTED = [/^\/api\/telegram\/webhook/, /^\/api\/sandbox/, /\*$/, /^\/api\/openapi\.json$/, /^\/api\/mcp/, /^\/api\/docs\//];

const json = (schema: GenericSchema) => toJsonSchema(schema, { errorMode: "ignore" }) as Record<string, unknown>;

/** The answer of a route, by "METHOD path" as Hono registered it; the others are described generally. */
const ANSWERS: Record<string, { status?: number; schema: GenericSchema; array?: boolean }> = {
  "GET /api/projects": { schema: answers.ProjectAnswer, array: true },
  "POST /api/projects": { status: 201, schema: answers.ProjectAnswer },
  "GET /api/projects/:id": { schema: answers.ProjectAnswer },
  "PATCH /api/projects/:id": { schema: answers.ProjectAnswer },
  "DELETE /api/projects/:id": { schema: answers.OkAnswer },
  "GET /api/projects/:projectId/drafts": { schema: answers.DraftAnswer, array: true },
  "GET /api/projects/:projectId/drafts/:draftId": { schema: answers.DraftAnswer },
  "POST /api/projects/:projectId/drafts": { status: 201, schema: answers.DraftAnswer },
  "POST /api/projects/:projectId/drafts/bulk": { status: 201, schema: answers.DraftAnswer, array: true },
  "PATCH /api/projects/:projectId/drafts/:draftId": { schema: answers.DraftAnswer },
  "DELETE /api/projects/:projectId/drafts/:draftId": { schema: answers.OkAnswer },
  "GET /api/projects/:projectId/posts": { schema: answers.PostAnswer, array: true },
  "GET /api/projects/:projectId/posts/published": { schema: answers.PostAnswer, array: true },
  "GET /api/projects/:projectId/posts/:postId": { schema: answers.PostAnswer },
  "POST /api/projects/:projectId/posts": { status: 201, schema: answers.PostAnswer },
  "PUT /api/projects/:projectId/posts/:postId": { schema: answers.PostAnswer },
  "POST /api/projects/:projectId/posts/:postId/publish": { schema: answers.PostAnswer },
  "GET /api/projects/:projectId/members": { schema: answers.MembersAnswer },
  "POST /api/projects/:projectId/invitations": { status: 201, schema: answers.InvitationAnswer },
  "GET /api/projects/:projectId/activity": { schema: answers.ActivityAnswer },
  "GET /api/projects/:projectId/ads": { schema: answers.AdReportAnswer },
  "GET /api/tokens": { schema: answers.TokenAnswer, array: true },
  "POST /api/tokens": { status: 201, schema: answers.CreatedTokenAnswer },
  "DELETE /api/tokens/:tokenId": { schema: answers.OkAnswer },
};

/** The query a route reads, where it has one worth naming. */
const QUERIES: Record<string, GenericSchema> = {
  "GET /api/projects/:projectId/activity": ActivityQuery,
  "GET /api/projects/:projectId/stats": StatsPeriodQuery,
  "GET /api/projects/:projectId/ads": StatsPeriodQuery,
};

const CREATES = new Set([
  "POST /api/projects/:projectId/drafts", "POST /api/projects/:projectId/drafts/bulk", "POST /api/projects/:projectId/posts",
  "POST /api/projects/:projectId/invitations", "POST /api/projects/:projectId/webhooks",
]);

/** Hono's "/api/uploads/:key" and "/x/:id{[0-9]+}" as OpenAPI's "/api/uploads/{key}". */
const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");

const operationId = (method: string, path: string) =>
  method.toLowerCase() + path.replace(/^\/api/, "").split(/[/{}:-]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join("");

export function openApiDocument(routes: readonly RouteEntry[], version: string) {
  const operations = new Map<string, { method: string; path: string; body?: GenericSchema }>();
  for (const r of routes) {
    if (r.method === "ALL" || UNDOCUMENTED.some((pattern) => pattern.test(r.path))) continue;
    const path = r.path.length > 1 ? r.path.replace(/\/$/, "") : r.path;
    const key = `${r.method} ${path}`;
    const entry = operations.get(key) ?? { method: r.method, path };
    const schema = (r.handler as { [BODY_SCHEMA]?: GenericSchema })[BODY_SCHEMA];
    if (schema) entry.body = schema;
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
    const answerSchema = answer ? (answer.array ? { type: "array", items: json(answer.schema) } : json(answer.schema)) : { type: ["object", "array"] };
    const operation: Record<string, unknown> = {
      operationId: operationId(op.method, path),
      summary: `${op.method} ${path}`,
      tags: [path.split("/")[2] ?? "api"],
      ...(parameters.length ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: json(op.body) } } } } : {}),
      responses: {
        [String(answer?.status ?? 200)]: { description: "Success", content: { "application/json": { schema: answerSchema } } },
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
