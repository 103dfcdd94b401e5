/*
 * Comments on a post (docs/teams.md "Comments", shared/DESIGN.md "Teams"): any member reads
 * them, oldest first, with who wrote them and when; every member but a viewer writes; 1–2000
 * characters; a stranger is told the project does not exist. Home of api/routes/comments.ts.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

async function projectWithPost() {
  const { cookie, user } = await stack.signIn(uniqueEmail("owner"));
  const project = (await stack.call("POST", "/api/projects", { name: "Talk", adminHandle: "talk_admin" }, cookie)).json;
  const base = `/api/projects/${project.id}`;
  const draft = (await stack.call("POST", `${base}/drafts`, { title: "Discussed", content: "Text" }, cookie)).json;
  const post = (await stack.call("POST", `${base}/posts`, {
    draftId: draft.id, scheduledFor: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  }, cookie)).json;
  return { cookie, user, project, base, postId: post.id as number, comments: `${base}/posts/${post.id}/comments` };
}

const count = async (postId: number) =>
  (await stack.sql`select count(*)::int as n from app_public.post_comments where post_id = ${postId}`)[0].n as number;

test("every member but a viewer writes; everyone reads them oldest first, with who wrote them and when", async () => {
  const p = await projectWithPost();
  const editor = await addMember(stack, p.project.id, p.cookie, "editor");
  const author = await addMember(stack, p.project.id, p.cookie, "author");
  const viewer = await addMember(stack, p.project.id, p.cookie, "viewer");

  const writers = [[p.cookie, p.user.email, "Owner here."], [editor.cookie, editor.email, "Editor's note."], [author.cookie, author.email, "Author: fixed."]] as const;
  for (const [cookie, email, text] of writers) {
    const written = await stack.call("POST", p.comments, { text }, cookie);
    expect(written.status, written.text).toBe(201);
    expect(written.json).toEqual({ id: expect.any(Number), author: { userId: expect.any(Number), email: email.toLowerCase() }, text, createdAt: expect.any(String) });
  }
  const refused = await stack.call("POST", p.comments, { text: "Viewer's opinion" }, viewer.cookie);
  expect(refused.status).toBe(403);
  expect(refused.json.code).toBe("team.forbidden");

  const listed = await stack.call("GET", p.comments, undefined, viewer.cookie);
  expect(listed.status).toBe(200);
  expect(listed.json.map((c: { text: string; author: { email: string } }) => [c.author.email, c.text])).toEqual(
    writers.map(([, email, text]) => [email.toLowerCase(), text]),
  );
  const times = listed.json.map((c: { createdAt: string }) => Date.parse(c.createdAt));
  expect([...times].sort((a, b) => a - b)).toEqual(times);
});

test("a comment is 1 to 2000 characters: empty, blank or longer answers 400 and adds nothing", async () => {
  const p = await projectWithPost();
  for (const body of [{ text: "" }, { text: "   \n " }, { text: "x".repeat(2001) }, {}, { text: 5 }]) {
    const answer = await stack.call("POST", p.comments, body, p.cookie);
    expect(answer.status, JSON.stringify(body)).toBe(400);
    expect(answer.json.code).toBe("comments.textInvalid");
  }
  expect(await count(p.postId)).toBe(0);
  const longest = await stack.call("POST", p.comments, { text: "я".repeat(2000) }, p.cookie);
  expect(longest.status).toBe(201);
  expect(longest.json.text).toHaveLength(2000);
});

test("a stranger is told the project does not exist; a post of another project is not found", async () => {
  const p = await projectWithPost();
  await stack.call("POST", p.comments, { text: "Ours" }, p.cookie);
  const { cookie: stranger } = await stack.signIn(uniqueEmail("stranger"));
  for (const [method, body] of [["GET", undefined], ["POST", { text: "Let me in" }]] as const) {
    const answer = await stack.call(method, p.comments, body, stranger);
    expect(answer.status, method).toBe(404);
    expect(answer.json.code).toBe("projects.notFound");
  }
  const other = await projectWithPost();
  const elsewhere = await stack.call("POST", `${p.base}/posts/${other.postId}/comments`, { text: "Wrong door" }, p.cookie);
  expect(elsewhere.status).toBe(404);
  expect(elsewhere.json.code).toBe("posts.notFound");
  expect((await stack.call("GET", `${p.base}/posts/${other.postId}/comments`, undefined, p.cookie)).status).toBe(404);
  expect(await count(other.postId)).toBe(0);
  expect(await count(p.postId)).toBe(1);
});

test("a post's comments go with it", async () => {
  const p = await projectWithPost();
  await stack.call("POST", p.comments, { text: "Soon gone" }, p.cookie);
  expect((await stack.call("DELETE", `${p.base}/posts/${p.postId}`, undefined, p.cookie)).status).toBe(200);
  expect(await count(p.postId)).toBe(0);
  expect((await stack.call("GET", p.comments, undefined, p.cookie)).status).toBe(404);
});

test("a writer corrects or takes back their own comment; another's is not theirs; an owner may remove any", async () => {
  const p = await projectWithPost();
  const editor = await addMember(stack, p.project.id, p.cookie, "editor");
  const author = await addMember(stack, p.project.id, p.cookie, "author");
  const mine = (await stack.call("POST", p.comments, { text: "Typo here" }, author.cookie)).json;
  const theirs = (await stack.call("POST", p.comments, { text: "The editor's" }, editor.cookie)).json;

  const fixed = await stack.call("PATCH", `${p.comments}/${mine.id}`, { text: "No typo here" }, author.cookie);
  expect(fixed.json).toMatchObject({ id: mine.id, text: "No typo here" });
  expect((await stack.call("PATCH", `${p.comments}/${theirs.id}`, { text: "Hijacked" }, author.cookie)).json.code).toBe("comments.notFound");
  expect((await stack.call("PATCH", `${p.comments}/${mine.id}`, { text: "" }, author.cookie)).status).toBe(400);
  expect((await stack.call("DELETE", `${p.comments}/${theirs.id}`, undefined, author.cookie)).status).toBe(404);
  expect((await stack.call("DELETE", `${p.comments}/${mine.id}`, undefined, author.cookie)).status).toBe(200);
  // the owner moderates
  expect((await stack.call("DELETE", `${p.comments}/${theirs.id}`, undefined, p.cookie)).status).toBe(200);
  expect(await count(p.postId)).toBe(0);
});
