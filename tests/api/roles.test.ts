/*
 * Every project route, walked by every role (docs/teams.md): the answer must agree with the
 * one table of what a role may do, app_private.role_actions. A role the table allows is never
 * refused for its role (no 403 team.forbidden, no 404 "no such project"); a role it does not
 * allow gets 403 team.forbidden and changes nothing. ROUTES names each project route's
 * action: a route added without an entry here fails the first test, so no route can skip
 * the walk. The SPA's copy of the table (contract/team.ts ROLE_CAN) is held equal to it.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROLE_CAN, ROLES, type Role } from "../../contract/team.ts";
import { makePng } from "../helpers/images.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true, openai: true });
});
afterAll(() => stack.close());

/** The ids a route's path needs, made once per project. */
type Ids = {
  projectId: number;
  draftId: number;
  postId: number;
  publishedPostId: number;
  planId: number;
  linkId: number;
  channelId: number;
  jobId: number;
  spareUserId: number;
  invitationId: number;
  webhookId: number;
  deliveryId: number;
  commentId: number;
};
type Request = { path?: (ids: Ids) => string; body?: (ids: Ids) => unknown; form?: () => FormData };
type RouteEntry = { action: string } & Request;

const soon = () => new Date(Date.now() + 3 * 86_400_000).toISOString();

/** Each project route (method and Hono path) with the action it needs and a request that reaches its rule. */
const ROUTES: Record<string, RouteEntry> = {
  "GET /api/projects/:id": { action: "project.read" },
  "PATCH /api/projects/:id": { action: "project.update", body: () => ({ description: "Changed" }) },
  "DELETE /api/projects/:id": { action: "project.delete" },
  "GET /api/projects/:projectId/drafts": { action: "project.read" },
  "GET /api/projects/:projectId/drafts/:draftId": { action: "project.read" },
  "POST /api/projects/:projectId/drafts": { action: "drafts.write", body: () => ({ title: "A new one", content: "Text" }) },
  "POST /api/projects/:projectId/drafts/bulk": { action: "drafts.write", body: () => ({ titles: ["Bulk one"] }) },
  "POST /api/projects/:projectId/drafts/reorder": {
    action: "drafts.write",
    body: (ids) => ({ drafts: [{ id: ids.draftId, order: 0 }] }),
  },
  "POST /api/projects/:projectId/drafts/:draftId/move": { action: "drafts.write", body: () => ({ afterId: null }) },
  "PATCH /api/projects/:projectId/drafts/:draftId": { action: "drafts.write", body: () => ({ title: "Renamed" }) },
  "DELETE /api/projects/:projectId/drafts/:draftId": { action: "drafts.write" },
  "GET /api/projects/:projectId/channels": { action: "project.read" },
  "POST /api/projects/:projectId/channels": { action: "channel.manage", body: () => ({ type: "telegram", link: "@another_channel" }) },
  "DELETE /api/projects/:projectId/channels/:channelId": { action: "channel.manage" },
  "GET /api/projects/:projectId/posts": { action: "project.read" },
  "GET /api/projects/:projectId/posts/published": { action: "project.read" },
  "GET /api/projects/:projectId/posts/:postId": { action: "project.read" },
  "POST /api/projects/:projectId/posts": {
    action: "posts.write",
    body: () => ({ scheduledFor: soon(), title: "Written here", content: "Body", writeDraft: true }),
  },
  "PUT /api/projects/:projectId/posts/:postId": {
    action: "posts.write",
    body: (ids) => ({ draftId: ids.draftId, scheduledFor: soon() }),
  },
  "POST /api/projects/:projectId/posts/:postId/skip": { action: "posts.write", body: () => ({ at: soon(), skip: true }) },
  // an author's Publish sends the post to review (tests/api/review.test.ts)
  "POST /api/projects/:projectId/posts/:postId/publish": { action: "posts.write" },
  "GET /api/projects/:projectId/posts/review": { action: "project.read" },
  "POST /api/projects/:projectId/posts/:postId/review": { action: "posts.review", body: () => ({ decision: "approve" }) },
  "GET /api/projects/:projectId/posts/:postId/comments": { action: "project.read" },
  "POST /api/projects/:projectId/posts/:postId/comments": { action: "comments.write", body: () => ({ text: "A remark" }) },
  "PATCH /api/projects/:projectId/posts/:postId/comments/:commentId": { action: "comments.write", body: () => ({ text: "Corrected" }) },
  "DELETE /api/projects/:projectId/posts/:postId/comments/:commentId": { action: "comments.write" },
  "POST /api/projects/:projectId/posts/:postId/resend": { action: "posts.publish" },
  "POST /api/projects/:projectId/posts/:postId/resolve": { action: "posts.publish", body: () => ({ inChannel: true }) },
  "DELETE /api/projects/:projectId/posts/:postId": { action: "posts.write" },
  "GET /api/projects/:projectId/content-plans": { action: "project.read" },
  "GET /api/projects/:projectId/content-plans/suggested-times": { action: "project.read" },
  "POST /api/projects/:projectId/content-plans": { action: "plans.write", body: () => ({ dayOfWeek: 2, time: "09:00", postLength: 300 }) },
  "PATCH /api/projects/:projectId/content-plans/:planId": { action: "plans.write", body: () => ({ active: false }) },
  "DELETE /api/projects/:projectId/content-plans/:planId": { action: "plans.write" },
  "GET /api/projects/:projectId/queue-health": { action: "project.read" },
  "GET /api/projects/:projectId/stats": { action: "project.read" },
  "GET /api/projects/:projectId/invite-links": { action: "project.read" },
  "GET /api/projects/:projectId/ads": { action: "project.read" },
  "POST /api/projects/:projectId/invite-links": { action: "invite_links.manage", body: () => ({ name: "Ads" }) },
  "DELETE /api/projects/:projectId/invite-links/:linkId": { action: "invite_links.manage" },
  "GET /api/projects/:projectId/members": { action: "project.read" },
  "GET /api/projects/:projectId/activity": { action: "project.read" },
  "GET /api/projects/:projectId/webhooks": { action: "project.read" },
  "POST /api/projects/:projectId/webhooks": { action: "webhooks.manage", body: () => ({ url: "https://hooks.example.com/pressa", events: ["post.published"] }) },
  "PATCH /api/projects/:projectId/webhooks/:webhookId": { action: "webhooks.manage", body: () => ({ events: ["post.published", "post.failed"] }) },
  "DELETE /api/projects/:projectId/webhooks/:webhookId": { action: "webhooks.manage" },
  "GET /api/projects/:projectId/webhooks/:webhookId/deliveries": { action: "project.read" },
  "POST /api/projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/redeliver": { action: "webhooks.manage" },
  "PATCH /api/projects/:projectId/members/:userId": {
    action: "members.manage",
    path: (ids) => `/api/projects/${ids.projectId}/members/${ids.spareUserId}`,
    body: () => ({ role: "viewer" }),
  },
  "DELETE /api/projects/:projectId/members/:userId": {
    action: "members.manage",
    path: (ids) => `/api/projects/${ids.projectId}/members/${ids.spareUserId}`,
  },
  "POST /api/projects/:projectId/invitations": { action: "members.manage", body: () => ({ email: uniqueEmail("walk"), role: "viewer" }) },
  "DELETE /api/projects/:projectId/invitations/:invitationId": { action: "members.manage" },
  "POST /api/projects/:projectId/upload-image": {
    action: "drafts.write",
    form: () => {
      const form = new FormData();
      form.append("image", new File([makePng(64, 64)], "a.png", { type: "image/png" }));
      return form;
    },
  },
  "POST /api/projects/:projectId/generate-title": { action: "ai.use" },
  "POST /api/projects/:projectId/generate-post": { action: "ai.use", body: () => ({ title: "A title", postLength: 300 }) },
  "POST /api/projects/:projectId/generate-multiple-titles": { action: "ai.use", body: () => ({ count: 2 }) },
  "POST /api/projects/:projectId/drafts/generate-content": { action: "ai.use", body: (ids) => ({ draftIds: [ids.draftId], postLength: 300 }) },
  "GET /api/projects/:projectId/jobs/:jobId": { action: "project.read" },
  "GET /api/projects/:projectId/chat/history": { action: "project.read" },
  "POST /api/projects/:projectId/chat": { action: "ai.use", body: () => ({ message: "Hello" }) },
  "POST /api/projects/:projectId/chat/stream": { action: "ai.use", body: () => ({ message: "Hello" }) },
};

/** The project routes the app serves: method and path, as Hono registered them. */
function projectRoutes(): string[] {
  const seen = new Set<string>();
  for (const r of stack.app.routes) {
    if (r.method === "ALL" || !r.path.startsWith("/api/projects/:")) continue;
    seen.add(`${r.method} ${r.path.replace(/\/$/, "")}`);
  }
  return [...seen].sort();
}

function pathOf(key: string, ids: Ids): string {
  const entry = ROUTES[key];
  if (entry.path) return entry.path(ids);
  return key.split(" ")[1]
    .replace(":id", String(ids.projectId)).replace(":projectId", String(ids.projectId))
    .replace(":draftId", String(ids.draftId)).replace(":postId", String(ids.postId))
    .replace(":planId", String(ids.planId)).replace(":linkId", String(ids.linkId))
    .replace(":channelId", String(ids.channelId)).replace(":jobId", String(ids.jobId))
    .replace(":userId", String(ids.spareUserId)).replace(":invitationId", String(ids.invitationId))
    .replace(":webhookId", String(ids.webhookId)).replace(":deliveryId", String(ids.deliveryId))
    .replace(":commentId", String(ids.commentId));
}

async function send(key: string, ids: Ids, cookie: string) {
  const [method] = key.split(" ");
  const entry = ROUTES[key];
  const path = pathOf(key, ids);
  if (entry.form) {
    const res = await stack.app.request(path, { method, body: entry.form(), headers: { cookie } });
    const text = await res.text();
    return { status: res.status, text, json: text.startsWith("{") ? JSON.parse(text) : undefined };
  }
  return await stack.call(method, path, entry.body?.(ids), cookie);
}

/** What a project holds, as one digest: a refused call must leave it as it was. */
async function digest(projectId: number): Promise<string> {
  const [row] = await stack.sql`
    select md5(concat_ws('|',
      (select string_agg(t::text, ',' order by t.id) from app_public.drafts t where project_id = ${projectId}),
      (select string_agg(t::text, ',' order by t.id) from app_public.posts t where project_id = ${projectId}),
      (select string_agg(t::text, ',' order by t.id) from app_public.post_comments t where project_id = ${projectId}),
      (select string_agg(t::text, ',' order by t.id) from app_public.content_plans t where project_id = ${projectId}),
      (select string_agg(t::text, ',' order by t.id) from app_public.channels t where project_id = ${projectId}),
      (select string_agg(t::text, ',' order by t.id) from app_public.invite_links t where project_id = ${projectId}),
      (select string_agg(t::text, ',' order by t.user_id) from app_public.project_members t where project_id = ${projectId}),
      (select string_agg(t::text, ',' order by t.id) from app_public.project_invitations t where project_id = ${projectId}),
      (select string_agg(t::text, ',' order by t.id) from app_public.generation_jobs t where project_id = ${projectId}),
      (select string_agg(t::text, ',' order by t.id) from app_public.chat_messages t where project_id = ${projectId}),
      (select t::text from app_public.projects t where id = ${projectId}))) as d`;
  return row.d;
}

/** A project with one of everything a route can name, and a member of each role. */
async function teamProject() {
  const p = await projectWithChannel(stack, { drafts: ["First", "Second", "Third"] });
  const ids = { projectId: p.project.id } as Ids;
  const post = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: soon() }, p.cookie);
  ids.postId = post.json.id;
  ids.draftId = p.drafts[1].id;
  const [published] = await stack.sql`
    insert into app_public.posts (project_id, title, content, scheduled_for, status, published_at)
    values (${ids.projectId}, 'Out', 'Out', now() - interval '1 day', 'published', now() - interval '1 day') returning id`;
  ids.publishedPostId = published.id;
  ids.planId = (await stack.call("POST", `${p.base}/content-plans`, { dayOfWeek: 1, time: "10:00", postLength: 300 }, p.cookie)).json.id;
  ids.linkId = (await stack.call("POST", `${p.base}/invite-links`, { name: "Walk" }, p.cookie)).json.id;
  ids.channelId = (await stack.call("GET", `${p.base}/channels`, undefined, p.cookie)).json[0].id;
  const [job] = await stack.sql`
    insert into app_public.generation_jobs (project_id, type, status) values (${ids.projectId}, 'generate_content', 'completed') returning id`;
  ids.jobId = job.id;
  const members = {} as Record<Role, string>;
  members.owner = p.cookie;
  for (const role of ["editor", "author", "viewer"] as const) members[role] = (await addMember(stack, ids.projectId, p.cookie, role)).cookie;
  ids.spareUserId = (await addMember(stack, ids.projectId, p.cookie, "viewer", "spare")).user.id;
  ids.invitationId = (await stack.call("POST", `${p.base}/invitations`, { email: uniqueEmail("pending"), role: "author" }, p.cookie)).json.id;
  // an endpoint that got one delivery (the worker's try at it fails: nothing listens there)
  const [hook] = await stack.sql`insert into app_public.webhooks (project_id, url, events) values (${ids.projectId}, 'https://hooks.example.com/x', '{draft.created}') returning id`;
  ids.webhookId = hook.id;
  const [delivery] = await stack.sql`
    insert into app_public.webhook_deliveries (webhook_id, message_id, event_type, payload, status)
    values (${hook.id}, 'msg_walk', 'draft.created', '{}', 'failed') returning id`;
  ids.deliveryId = delivery.id;
  ids.commentId = (await stack.call("POST", `${p.base}/posts/${ids.postId}/comments`, { text: "The owner's note" }, p.cookie)).json.id;
  return { ids, members };
}

describe("roles", () => {
  test("the SPA's table is the database's, and every project route has an entry", async () => {
    const rows = await stack.sql<{ role: Role; action: string }[]>`select role, action from app_private.role_actions order by role, action`;
    for (const role of ROLES) {
      expect([...ROLE_CAN[role]].sort(), role).toEqual(rows.filter((r) => r.role === role).map((r) => r.action).sort());
    }
    const actions = new Set(rows.map((r) => r.action));
    const missing = projectRoutes().filter((key) => !(key in ROUTES));
    expect(missing, "routes with no entry in ROUTES (name their action)").toEqual([]);
    for (const [key, entry] of Object.entries(ROUTES)) expect(actions.has(entry.action), `${key}: ${entry.action}`).toBe(true);
    // and no entry names a route the app does not serve
    expect(Object.keys(ROUTES).filter((key) => !projectRoutes().includes(key))).toEqual([]);
  });

  test("a role the table does not allow is refused (403 team.forbidden) and changes nothing; an allowed role is never refused for its role", async () => {
    const { ids, members } = await teamProject();
    const keys = Object.keys(ROUTES);
    // refusals first, while every object still exists
    for (const role of ["viewer", "author", "editor"] as const) {
      const before = await digest(ids.projectId);
      for (const key of keys) {
        if ((ROLE_CAN[role] as readonly string[]).includes(ROUTES[key].action)) continue;
        const answer = await send(key, ids, members[role]);
        expect(answer.status, `${role} ${key}: ${answer.text}`).toBe(403);
        expect(answer.json?.code, `${role} ${key}`).toBe("team.forbidden");
      }
      expect(await digest(ids.projectId), `${role}'s refused calls changed the project`).toBe(before);
    }
    // then each allowed call, the project's deletion last
    const ordered = [...keys.filter((k) => k !== "DELETE /api/projects/:id"), "DELETE /api/projects/:id"];
    for (const key of ordered) {
      for (const role of ROLES) {
        if (!(ROLE_CAN[role] as readonly string[]).includes(ROUTES[key].action)) continue;
        const answer = await send(key, ids, members[role]);
        expect(answer.status, `${role} ${key}: ${answer.text}`).not.toBe(403);
        expect(answer.json?.code, `${role} ${key}: ${answer.text}`).not.toBe("projects.notFound");
        expect(answer.status, `${role} ${key}: ${answer.text}`).toBeLessThan(500);
      }
    }
  });

  test("a published post's text and its channel messages are the publishing roles' to change", async () => {
    const { ids, members } = await teamProject();
    const base = `/api/projects/${ids.projectId}/posts/${ids.publishedPostId}`;
    for (const role of ["author", "viewer"] as const) {
      const edit = await stack.call("PUT", base, { scheduledFor: new Date(Date.now() - 86_400_000).toISOString(), content: "Edited" }, members[role]);
      expect(edit.json.code, role).toBe("team.forbidden");
      const remove = await stack.call("DELETE", base, { deleteFromChannels: true }, members[role]);
      expect(remove.json.code, role).toBe("team.forbidden");
    }
    expect((await stack.sql`select content from app_public.posts where id = ${ids.publishedPostId}`)[0].content).toBe("Out");
  });
});
