/*
 * API tokens (docs/api.md, shared/DESIGN.md "Public API, webhooks and MCP"): a token acts as
 * its account with its role in each project, narrowed by the token — a read token cannot
 * write, a one-project token reaches no other project, a revoked or unknown one is 401, and
 * tokens are managed with a session only. Each token is counted per minute in PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { uploadedImage } from "../helpers/images.ts";
import { addMember } from "../helpers/team.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { API_TOKEN_REQUESTS_PER_MINUTE: "30" } });
});
afterAll(() => stack.close());

/** A request with a bearer token and no cookie, as a script sends it. */
async function bearer(method: string, path: string, token: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  // a script's request from anywhere: an Origin that is not ours does not matter with a bearer token
  headers.origin = "https://automation.example";
  const res = await stack.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, text };
}

async function account() {
  const { cookie, user } = await stack.signIn(uniqueEmail("api"));
  const make = async (name: string) => (await stack.call("POST", "/api/projects", { name, adminHandle: "api_admin" }, cookie)).json.id as number;
  return { cookie, user, first: await make("First"), second: await make("Second") };
}

describe("tokens", () => {
  test("made once with the secret shown once, listed without it, with their last use; revoked at once", async () => {
    const a = await account();
    const made = await stack.call("POST", "/api/tokens", { name: "Sheets", scopes: ["read", "write"] }, a.cookie);
    expect(made.status, made.text).toBe(201);
    expect(made.json).toEqual({ id: expect.any(Number), name: "Sheets", projectId: null, scopes: ["read", "write"], createdAt: expect.any(String), token: expect.stringMatching(/^prs_[A-Za-z0-9_-]{43}$/) });
    const [stored] = await stack.sql`select count(*)::int as n from app_private.api_tokens where encode(token_hash, 'escape') like ${"%" + made.json.token.slice(4, 20) + "%"}`;
    expect(stored.n).toBe(0);

    expect((await bearer("GET", "/api/projects", made.json.token)).json.map((p: { name: string }) => p.name).sort()).toEqual(["First", "Second"]);
    const listed = (await stack.call("GET", "/api/tokens", undefined, a.cookie)).json;
    expect(listed).toEqual([{ id: made.json.id, name: "Sheets", projectId: null, scopes: ["read", "write"], createdAt: expect.any(String), lastUsedAt: expect.any(String) }]);
    expect(JSON.stringify(listed)).not.toContain(made.json.token);

    const renamed = await stack.call("PATCH", `/api/tokens/${made.json.id}`, { name: "Sheets (finance)" }, a.cookie);
    expect(renamed.json).toMatchObject({ id: made.json.id, name: "Sheets (finance)", scopes: ["read", "write"] });
    expect((await stack.call("PATCH", `/api/tokens/${made.json.id}`, { name: " " }, a.cookie)).json.code).toBe("tokens.nameRequired");
    expect((await stack.call("DELETE", `/api/tokens/${made.json.id}`, undefined, a.cookie)).status).toBe(200);
    const revoked = await bearer("GET", "/api/projects", made.json.token);
    expect(revoked.status).toBe(401);
    expect(revoked.json.code).toBe("tokens.invalid");
    expect((await bearer("GET", "/api/projects", "prs_" + "x".repeat(43))).status).toBe(401);
    expect((await bearer("GET", "/api/projects", "not-a-token")).status).toBe(401);
  });

  test("a read token cannot write; a one-project token sees and reaches only its project; tokens need a session", async () => {
    const a = await account();
    const read = (await stack.call("POST", "/api/tokens", { name: "Read", scopes: ["read"] }, a.cookie)).json.token;
    const refused = await bearer("POST", `/api/projects/${a.first}/drafts`, read, { title: "Nope", content: "" });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe("tokens.scope");
    expect((await bearer("GET", `/api/projects/${a.first}/drafts`, read)).status).toBe(200);

    const one = (await stack.call("POST", "/api/tokens", { name: "First only", projectId: a.first, scopes: ["read", "write"] }, a.cookie)).json.token;
    expect((await bearer("GET", "/api/projects", one)).json.map((p: { id: number }) => p.id)).toEqual([a.first]);
    expect((await bearer("GET", "/api/projects/overview", one)).json.map((p: { projectId: number }) => p.projectId)).toEqual([a.first]);
    const other = await bearer("GET", `/api/projects/${a.second}/drafts`, one);
    expect(other.status).toBe(404);
    expect(other.json.code).toBe("projects.notFound");
    expect((await bearer("POST", "/api/projects", one, { name: "New", adminHandle: "api_admin" })).json.code).toBe("tokens.scope");
    const written = await bearer("POST", `/api/projects/${a.first}/drafts`, one, { title: "From a script", content: "" });
    expect(written.status, written.text).toBe(201);

    // what only the person may do is refused to any token, a read token's writes included
    const sessionOnly = [["GET", "/api/tokens"], ["POST", "/api/tokens"], ["DELETE", "/api/tokens/1"], ["DELETE", "/api/auth/user"],
      ["POST", `/api/invitations/${"a".repeat(43)}/accept`]] as const;
    for (const token of [one, read]) {
      for (const [method, path] of sessionOnly) {
        const answer = await bearer(method, path, token, method === "POST" ? { name: "Minted", scopes: ["read"] } : undefined);
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(answer.json.code).toBe("tokens.sessionOnly");
      }
    }
    expect((await stack.call("GET", "/api/tokens", undefined, a.cookie)).json).toHaveLength(2);

    // an image of the other project is not the one-project token's either; its own project's is
    const [mine, theirs] = [await uploadedImage(stack, a.first, a.cookie), await uploadedImage(stack, a.second, a.cookie)];
    const image = async (url: string, token: string) => (await stack.app.request(url, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await image(mine, one)).toBe(200);
    expect(await image(theirs, one)).toBe(404);
    expect(await image(theirs, read)).toBe(200);
    const { cookie: stranger } = await stack.signIn(uniqueEmail("stranger"));
    const foreign = await stack.call("POST", "/api/tokens", { name: "Theirs", projectId: a.first, scopes: ["read"] }, stranger);
    expect(foreign.status).toBe(404);
    expect((await stack.call("DELETE", `/api/tokens/${(await stack.call("GET", "/api/tokens", undefined, a.cookie)).json[0].id}`, undefined, stranger)).status).toBe(404);
  });

  test("a token never exceeds its account's role", async () => {
    const a = await account();
    const viewer = await addMember(stack, a.first, a.cookie, "viewer");
    const token = (await stack.call("POST", "/api/tokens", { name: "Viewer's", scopes: ["read", "write"] }, viewer.cookie)).json.token;
    const write = await bearer("POST", `/api/projects/${a.first}/drafts`, token, { title: "No", content: "" });
    expect(write.status).toBe(403);
    expect(write.json.code).toBe("team.forbidden");
  });

  test("bad input is refused with a code; each token has its own limit per minute", async () => {
    const a = await account();
    for (const [body, code] of [
      [{ name: "", scopes: ["read"] }, "tokens.nameRequired"],
      [{ name: "x", scopes: ["write"] }, "tokens.scopesInvalid"],
      [{ name: "x", scopes: [] }, "tokens.scopesInvalid"],
      [{ name: "x", scopes: ["read"], projectId: "one" }, "tokens.projectInvalid"],
    ] as const) {
      expect((await stack.call("POST", "/api/tokens", body, a.cookie)).json.code).toBe(code);
    }
    const busy = (await stack.call("POST", "/api/tokens", { name: "Busy", scopes: ["read"] }, a.cookie)).json.token;
    const calm = (await stack.call("POST", "/api/tokens", { name: "Calm", scopes: ["read"] }, a.cookie)).json.token;
    // API_TOKEN_REQUESTS_PER_MINUTE=30; a minute's edge may split the burst, so 61 calls cross it surely
    let limited: Awaited<ReturnType<typeof bearer>> | undefined;
    for (let i = 0; i < 61 && !limited; i++) {
      const answer = await bearer("GET", "/api/projects", busy);
      if (answer.status === 429) limited = answer;
    }
    expect(limited?.json.code).toBe("tokens.rateLimited");
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await bearer("GET", "/api/projects", calm)).status).toBe(200);
  });
});
