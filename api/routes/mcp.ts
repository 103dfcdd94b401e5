/*
 * /api/mcp (docs/api.md "MCP"): a Model Context Protocol server over Streamable HTTP for the
 * same bearer tokens as the API. Each tool is one API route, called through the app itself with
 * the caller's own token, so a tool checks exactly what its route checks (the token's scope
 * and project, the account's role in SQL, limits, bad input) and answers what it answers.
 * Stateless: every POST is a whole exchange; nothing is kept between requests.
 */
import { Hono } from "hono";
import { Server } from "@modelcontextprotocol/sdk/server";
// the SDK's "./*" export names no types for these paths; its files beside them do
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/webStandardStreamableHttp.d.ts"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type AppEnv, currentUser } from "../env.ts";
import { TOOL_REQUEST, type ToolRequestEnv } from "../middleware/api_token.ts";
import { ApiError } from "../../core/errors.ts";
import { API_VERSION } from "../version.ts";
import { MCP_TOOLS, type McpTool } from "../mcp_tools.ts";

type Dispatch = (request: Request, env: ToolRequestEnv & { remoteAddr?: unknown }) => Response | Promise<Response>;

/** Runs a tool as its route: the API answers, and its JSON (or its refusal) is the tool's result. */
async function callTool(tool: McpTool, args: Record<string, unknown>, authorization: string, origin: string, send: (request: Request) => Response | Promise<Response>) {
  const { method, path, query, body } = tool.request(args);
  const url = new URL(path, origin);
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  const headers: Record<string, string> = { authorization };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await send(new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  const text = await res.text();
  return {
    content: [{ type: "text" as const, text: text || JSON.stringify({ status: res.status }) }],
    ...(res.ok ? {} : { isError: true }),
  };
}

export function mcpRoutes(dispatch: Dispatch) {
  return new Hono<AppEnv>().all("/", async (c) => {
    const authorization = c.req.header("authorization");
    const apiToken = c.get("apiToken");
    // the tools act through the API with this very token: a session is not enough
    if (!apiToken || !authorization) throw new ApiError("tokens.invalid");
    // a tool's request is this exchange's: its token, already looked up and counted once
    const info = c.env as { remoteAddr?: unknown } | undefined;
    const send = (request: Request) => dispatch(request, { remoteAddr: info?.remoteAddr, [TOOL_REQUEST]: { user: currentUser(c), apiToken } });
    const server = new Server({ name: "pressa", version: API_VERSION }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: MCP_TOOLS.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = MCP_TOOLS.find((t) => t.name === request.params.name);
      if (!tool) return { content: [{ type: "text" as const, text: `No tool named ${request.params.name}` }], isError: true };
      return await callTool(tool, request.params.arguments ?? {}, authorization, new URL(c.req.url).origin, send);
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
}
