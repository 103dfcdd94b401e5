/*
 * The MCP server's tools (api/routes/mcp.ts, docs/api.md "MCP"): each maps one to one onto an
 * API route. The descriptions are written for an agent that plans a week of posts alone:
 * what a tool does, when to use it, and what the times and ids mean.
 */
type Args = Record<string, unknown>;
type ToolRequest = { method: string; path: string; query?: Record<string, unknown>; body?: unknown };
export type McpTool = { name: string; description: string; inputSchema: Record<string, unknown>; request: (args: Args) => ToolRequest };

const id = (description: string) => ({ type: "integer", minimum: 1, description });
const project = { projectId: id("The project's id, from list_projects.") };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, required });
const p = (args: Args) => `/api/projects/${Number(args.projectId)}`;

export const MCP_TOOLS: McpTool[] = [
  {
    name: "list_projects",
    description: "List the projects (Telegram channels) you can work on, each with your role in it (owner, editor, author, viewer), its timezone and language. Start here: every other tool needs a projectId.",
    inputSchema: object({}),
    request: () => ({ method: "GET", path: "/api/projects" }),
  },
  {
    name: "get_project",
    description: "One project's settings: its name, description, writing style, timezone (times you plan are instants; show them to people in this zone) and language.",
    inputSchema: object(project, ["projectId"]),
    request: (a) => ({ method: "GET", path: p(a) }),
  },
  {
    name: "list_drafts",
    description: "The project's drafts in their queue order: the ideas and texts waiting to be planned. Each says whether a post, a recurring series or the content plan already holds it (scheduledPostId, heldBySeriesId, heldByPlanId); free drafts hold none.",
    inputSchema: object(project, ["projectId"]),
    request: (a) => ({ method: "GET", path: `${p(a)}/drafts` }),
  },
  {
    name: "create_draft",
    description: "Add a draft to the project's queue. content is the post's text as it will appear in Telegram (plain text, at most 4096 characters; 1024 when it will carry images). Use it to fill the queue before planning.",
    inputSchema: object({ ...project, title: { type: "string", minLength: 1, maxLength: 500 }, content: { type: "string", maxLength: 4096 } }, ["projectId", "title"]),
    request: (a) => ({ method: "POST", path: `${p(a)}/drafts`, body: { title: a.title, content: a.content ?? "" } }),
  },
  {
    name: "update_draft",
    description: "Change a draft's title or text: give only what changes. Use list_drafts first to find the draft's id and current text.",
    inputSchema: object({ ...project, draftId: id("The draft's id, from list_drafts."), title: { type: "string", minLength: 1, maxLength: 500 }, content: { type: "string", maxLength: 4096 } }, ["projectId", "draftId"]),
    request: (a) => ({
      method: "PATCH",
      path: `${p(a)}/drafts/${Number(a.draftId)}`,
      body: Object.fromEntries(Object.entries({ title: a.title, content: a.content }).filter(([, v]) => v !== undefined)),
    }),
  },
  {
    name: "delete_draft",
    description: "Delete a draft. A draft planned as a post that has not gone to the channel's admin yet cannot be deleted: delete the post first.",
    inputSchema: object({ ...project, draftId: id("The draft's id.") }, ["projectId", "draftId"]),
    request: (a) => ({ method: "DELETE", path: `${p(a)}/drafts/${Number(a.draftId)}` }),
  },
  {
    name: "list_posts",
    description: "The posts planned or published between from and to (ISO instants, at most 400 days apart), with their status: draft (planned), in_review, scheduled (sent to the channel's admin for approval), approved, published, rejected, failed. Use it to see which days of a week are free.",
    inputSchema: object({ ...project, from: { type: "string", format: "date-time" }, to: { type: "string", format: "date-time" } }, ["projectId", "from", "to"]),
    request: (a) => ({ method: "GET", path: `${p(a)}/posts`, query: { from: a.from, to: a.to, view: "calendar" } }),
  },
  {
    name: "schedule_post",
    description: "Plan a post for a future instant (ISO, e.g. 2026-12-01T09:00:00Z; pick the hour in the project's timezone). Either give draftId (a free draft from list_drafts) or give title and content to write it in one step. The channel's admin is asked to approve it in Telegram 2 hours before; an author's post waits for an editor's review first.",
    inputSchema: object({
      ...project,
      scheduledFor: { type: "string", format: "date-time" },
      draftId: id("A free draft to publish."),
      title: { type: "string", maxLength: 500 },
      content: { type: "string", maxLength: 4096 },
    }, ["projectId", "scheduledFor"]),
    request: (a) => ({
      method: "POST",
      path: `${p(a)}/posts`,
      body: a.draftId !== undefined
        ? { draftId: a.draftId, scheduledFor: a.scheduledFor }
        : { scheduledFor: a.scheduledFor, title: a.title ?? "", content: a.content ?? "", writeDraft: true },
    }),
  },
  {
    name: "suggest_times",
    description: "The best hours to post, from the channel's reactions over the last 90 days (weekday 1 = Monday, hour in the project's timezone), or how many more published posts that needs.",
    inputSchema: object(project, ["projectId"]),
    request: (a) => ({ method: "GET", path: `${p(a)}/content-plans/suggested-times` }),
  },
  {
    name: "get_stats",
    description: "The channel's statistics between from and to (default the last 30 days): subscribers now and over time, joins and leaves per day, each post's reactions, and the best weekday and hour to post.",
    inputSchema: object({ ...project, from: { type: "string", format: "date-time" }, to: { type: "string", format: "date-time" } }, ["projectId"]),
    request: (a) => ({ method: "GET", path: `${p(a)}/stats`, query: { from: a.from, to: a.to } }),
  },
  {
    name: "ad_report",
    description: "The project's advertising posts between from and to (default the last 30 days; at most 400 days): each ad's advertiser, erid, planned and real send time, when its time on top ends, when it leaves the feed and when it was removed, its reactions and its price, with the totals per currency. Rejected and failed ads are left out: they never ran.",
    inputSchema: object({ ...project, from: { type: "string", format: "date-time" }, to: { type: "string", format: "date-time" } }, ["projectId"]),
    request: (a) => ({ method: "GET", path: `${p(a)}/ads`, query: { from: a.from, to: a.to } }),
  },
];
