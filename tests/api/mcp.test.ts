/*
 * The MCP server (/api/mcp, docs/api.md "MCP"), driven by the official SDK's own client over
 * Streamable HTTP with a personal token: it lists its tools, creates a draft and plans a post
 * as the API would, and is refused exactly as the API refuses (another project, a read token's
 * write, no token).
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ serve: true });
});
afterAll(() => stack.close());

async function connect(token: string | undefined) {
  const client = new Client({ name: "pressa-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/api/mcp`), {
    requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
  });
  await client.connect(transport);
  return client;
}

type ToolText = { content: { type: string; text: string }[]; isError?: boolean };
const answerOf = (result: unknown) => JSON.parse((result as ToolText).content[0].text);

async function account() {
  const { cookie } = await stack.signIn(uniqueEmail("agent"));
  const make = async (name: string) => (await stack.call("POST", "/api/projects", { name, adminHandle: "mcp_admin" }, cookie)).json.id as number;
  const first = await make("Agent's channel");
  const second = await make("Another channel");
  const token = async (body: object) => (await stack.call("POST", "/api/tokens", { name: "Agent", ...body }, cookie)).json.token as string;
  return { cookie, first, second, token };
}

test("the SDK client lists the tools, creates a draft and plans a post through them", async () => {
  const a = await account();
  const client = await connect(await a.token({ scopes: ["read", "write"] }));
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ["list_projects", "list_drafts", "create_draft", "schedule_post", "get_stats"]) expect(names).toContain(name);
    for (const tool of tools) expect(tool.description!.length, tool.name).toBeGreaterThan(40);

    const projects = answerOf(await client.callTool({ name: "list_projects", arguments: {} }));
    expect(projects.map((p: { name: string }) => p.name).sort()).toEqual(["Agent's channel", "Another channel"]);
    const draft = answerOf(await client.callTool({ name: "create_draft", arguments: { projectId: a.first, title: "Monday idea", content: "Text" } }));
    expect(draft).toMatchObject({ title: "Monday idea", content: "Text", projectId: a.first });
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const post = answerOf(await client.callTool({ name: "schedule_post", arguments: { projectId: a.first, scheduledFor: at, draftId: draft.id } }));
    expect(post).toMatchObject({ draftId: draft.id, status: "draft", scheduledFor: at });
    const listed = await stack.call("GET", `/api/projects/${a.first}/drafts`, undefined, a.cookie);
    expect(listed.json.find((d: { id: number }) => d.id === draft.id).scheduledPostId).toBe(post.id);
    const bad = await client.callTool({ name: "create_draft", arguments: { projectId: a.first, title: "" } });
    expect((bad as ToolText).isError).toBe(true);
    expect(answerOf(bad).code).toBe("drafts.titleRequired");
  } finally {
    await client.close();
  }
});

test("a tool is refused as its route is: another project, a read token's write; no token, no server", async () => {
  const a = await account();
  const one = await connect(await a.token({ projectId: a.first, scopes: ["read", "write"] }));
  try {
    const other = await one.callTool({ name: "create_draft", arguments: { projectId: a.second, title: "Elsewhere" } });
    expect((other as ToolText).isError).toBe(true);
    expect(answerOf(other).code).toBe("projects.notFound");
    const otherAds = await one.callTool({ name: "ad_report", arguments: { projectId: a.second } });
    expect(answerOf(otherAds).code).toBe("projects.notFound");
    expect(answerOf(await one.callTool({ name: "list_projects", arguments: {} })).map((p: { id: number }) => p.id)).toEqual([a.first]);
  } finally {
    await one.close();
  }
  const reader = await connect(await a.token({ scopes: ["read"] }));
  try {
    const write = await reader.callTool({ name: "create_draft", arguments: { projectId: a.first, title: "Nope" } });
    expect(answerOf(write).code).toBe("tokens.scope");
    // a read token reads the ad report, a period refused as the route refuses it
    expect(answerOf(await reader.callTool({ name: "ad_report", arguments: { projectId: a.first } }))).toEqual({ items: [], totals: [] });
    const reversed = await reader.callTool({ name: "ad_report", arguments: { projectId: a.first, from: "2026-11-02T00:00:00Z", to: "2026-11-01T00:00:00Z" } });
    expect(answerOf(reversed).code).toBe("stats.rangeReversed");
  } finally {
    await reader.close();
  }
  expect((await stack.sql`select count(*)::int as n from app_public.drafts where project_id in (${a.first}, ${a.second})`)[0].n).toBe(0);
  await expect(connect(undefined)).rejects.toThrow();
});

test("several exchanges of one account at once all finish: the exchange holds no share of the account's requests its tools need", async () => {
  const a = await account();
  const token = await a.token({ scopes: ["read", "write"] });
  const clients = await Promise.all([0, 1, 2, 3].map(() => connect(token)));
  try {
    const results = await Promise.all(clients.map((client, i) =>
      client.callTool({ name: "create_draft", arguments: { projectId: a.first, title: `At once ${i}` } })));
    expect(results.map((r) => answerOf(r).title).sort()).toEqual(["At once 0", "At once 1", "At once 2", "At once 3"]);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
});

test("a tool call counts once against the token's per-minute limit: one HTTP request, one count", async () => {
  const a = await account();
  const token = (await stack.call("POST", "/api/tokens", { name: "Counted", scopes: ["read", "write"] }, a.cookie)).json.token as string;
  // each call a whole stateless exchange, as an agent's client sends it: one POST, nothing beside it
  // (the SDK's client also opens a stream of its own in the background, which would count too)
  let id = 0;
  const callTool = async (name: string, args: Record<string, unknown>) => {
    const res = await fetch(`${stack.baseUrl}/api/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } }),
    });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer.result.isError, JSON.stringify(answer)).toBeUndefined();
    return JSON.parse(answer.result.content[0].text);
  };
  // the token's count in this minute, as the limit reads it
  const counted = async () =>
    (await stack.sql<{ hits: number }[]>`
      select coalesce(sum(h.hits), 0)::int as hits from app_private.api_token_hits h
      join app_private.api_tokens t on t.id = h.token_id
      where t.token_hash = sha256(convert_to(${token}, 'UTF8')) and h.minute = date_trunc('minute', now())`)[0].hits;
  // measured within one minute (the count starts again with each one)
  for (let attempt = 0; attempt < 3; attempt++) {
    const minute = Math.floor(Date.now() / 60_000);
    const before = await counted();
    expect((await callTool("list_projects", {})).length).toBe(2);
    expect(await callTool("create_draft", { projectId: a.first, title: "Counted once" })).toMatchObject({ title: "Counted once" });
    const after = await counted();
    if (Math.floor(Date.now() / 60_000) !== minute) continue;
    expect(after - before).toBe(2);
    return;
  }
  throw new Error("three minutes turned over mid-measurement");
});
