/*
 * GET /api/openapi.json (docs/api.md): an OpenAPI 3.1 document that passes a standard
 * validator, holds every public route the app serves with the body schema its validator
 * checks, names every error code, and describes answers the API really gives.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import * as v from "valibot";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ERROR_CODES } from "../../contract/error_codes.ts";
import { DraftAnswer, ProjectAnswer } from "../../contract/answers.ts";
import { UNDOCUMENTED } from "../../api/openapi.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

test("the document validates as OpenAPI 3.1 and needs no session", async () => {
  const answer = await stack.call("GET", "/api/openapi.json");
  expect(answer.status).toBe(200);
  expect(answer.json.openapi).toBe("3.1.0");
  const result = await new Validator().validate(answer.json);
  expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
  expect(result.valid).toBe(true);
});

test("every public route is in it, with the body schema its validator checks, and every error code", async () => {
  const doc = (await stack.call("GET", "/api/openapi.json")).json;
  const served = new Set<string>();
  for (const r of stack.app.routes) {
    if (r.method === "ALL" || UNDOCUMENTED.some((pattern) => pattern.test(r.path))) continue;
    served.add(`${r.method.toLowerCase()} ${r.path.replace(/\/$/, "").replace(/:(\w+)(\{[^}]*\})?/g, "{$1}") || "/"}`);
  }
  const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m} ${path}`)));
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
  expect([...doc.components.schemas.Error.properties.code.enum].sort()).toEqual(Object.keys(ERROR_CODES).sort());
});

test("the answers it describes are the answers the API gives", async () => {
  const { cookie } = await stack.signIn(uniqueEmail("docs"));
  const project = await stack.call("POST", "/api/projects", { name: "Documented", adminHandle: "docs_admin" }, cookie);
  expect(v.safeParse(ProjectAnswer, project.json).issues).toBeUndefined();
  const draft = await stack.call("POST", `/api/projects/${project.json.id}/drafts`, { title: "Described", content: "**bold** text" }, cookie);
  expect(v.safeParse(DraftAnswer, draft.json).issues).toBeUndefined();
  const list = await stack.call("GET", "/api/projects", undefined, cookie);
  for (const p of list.json) expect(v.safeParse(ProjectAnswer, p).issues).toBeUndefined();
});
