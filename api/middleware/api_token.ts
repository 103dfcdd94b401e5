/*
 * Bearer tokens (docs/api.md): `Authorization: Bearer prs_…` acts as the token's account on
 * every /api route a session does, with that account's role in each project (checked in SQL
 * as for a session), narrowed by the token: a read token may only read (403 tokens.scope), a
 * one-project token reaches no other project (404, as a project that does not exist). An
 * unknown or revoked token is 401 at once: tokens are looked up on every request.
 */
import type { MiddlewareHandler } from "hono";
import type { Sql } from "../../core/db.ts";
import { ApiError } from "../../core/errors.ts";
import { TOKEN_PATTERN } from "../../contract/tokens.ts";
import type { AppEnv } from "../env.ts";

const READS = new Set(["GET", "HEAD"]);

export const bearerOf = (header: string | undefined) => /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];

/**
 * The mark of an MCP tool's own request (api/routes/mcp.ts): it carries the identity the MCP
 * exchange already looked up and counted, so one tool call is one request against the token's
 * limit, not two. Only code in this process can set it: it travels in the env of `app.fetch`,
 * which no HTTP request reaches.
 */
export const TOOL_REQUEST = Symbol("an MCP tool's request");
type Vars = AppEnv["Variables"];
export type ToolRequestEnv = { [TOOL_REQUEST]: { user: NonNullable<Vars["user"]>; apiToken: NonNullable<Vars["apiToken"]> } };

export function loadApiToken(sql: Sql, perMinute: number): MiddlewareHandler {
  return async (c, next) => {
    const tool = (c.env as Partial<ToolRequestEnv> | undefined)?.[TOOL_REQUEST];
    if (tool) {
      c.set("user", tool.user);
      c.set("apiToken", tool.apiToken);
      return await next();
    }
    const token = bearerOf(c.req.header("authorization"));
    if (token === undefined) return await next();
    if (!TOKEN_PATTERN.test(token)) throw new ApiError("tokens.invalid");
    const [row] = await sql<{ id: number; email: string; isAdmin: boolean; tokenId: number; projectId: number | null; scopes: string[] }[]>`
      select * from app_public.token_user(${token}, ${perMinute})`;
    if (!row) throw new ApiError("tokens.invalid");
    c.set("user", { id: row.id, email: row.email, isAdmin: row.isAdmin });
    c.set("apiToken", { id: row.tokenId, projectId: row.projectId, scopes: row.scopes });
    await next();
  };
}

/**
 * What only the person, signed in, may do, never a token (403 tokens.sessionOnly, before any
 * scope is weighed): manage tokens, delete the account, join a project by an invitation.
 */
const SESSION_ONLY: { method?: string; path: RegExp }[] = [
  { path: /^\/api\/tokens(?:\/|$)/ },
  { method: "DELETE", path: /^\/api\/auth\/user\/?$/ },
  { method: "POST", path: /^\/api\/invitations\/[^/]+\/accept\/?$/ },
];

/** What the token narrows: writes for a read token, other projects for a one-project token. */
export const tokenScope: MiddlewareHandler = async (c, next) => {
  const token = c.get("apiToken");
  if (!token) return await next();
  if (SESSION_ONLY.some((r) => r.path.test(c.req.path) && (r.method === undefined || r.method === c.req.method))) {
    throw new ApiError("tokens.sessionOnly");
  }
  // the MCP server's POSTs carry reads and writes alike: each tool's own request is judged
  const mcp = c.req.path.replace(/\/$/, "") === "/api/mcp";
  if (!READS.has(c.req.method) && !token.scopes.includes("write") && !mcp) throw new ApiError("tokens.scope");
  if (token.projectId !== null) {
    const project = /^\/api\/projects\/(\d+)(?:\/|$)/.exec(c.req.path)?.[1];
    if (project !== undefined && Number(project) !== token.projectId) throw new ApiError("projects.notFound");
    // a new project is not the token's project
    if (c.req.path.replace(/\/$/, "") === "/api/projects" && c.req.method === "POST") throw new ApiError("tokens.scope");
  }
  await next();
};
