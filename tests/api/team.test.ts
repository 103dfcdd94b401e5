/*
 * Teams (docs/teams.md, shared/DESIGN.md "Teams"): members with roles, invitations by e-mail,
 * role changes, leaving and removal. The last owner stays; a removed member is shut out at
 * once; an invitation works once, for its address, within 7 days. The mail with its link is
 * tasks/team__send_invitation.ts, read here from the SMTP sink.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { addMember, tokenFrom } from "../helpers/team.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { MEMBERS_PER_PROJECT: "4", INVITATIONS_PER_DAY: "6" } });
});
afterAll(() => stack.close());

async function ownedProject(name = "Team") {
  const { cookie, user } = await stack.signIn(uniqueEmail("owner"));
  const project = (await stack.call("POST", "/api/projects", { name, adminHandle: "team_admin" }, cookie)).json;
  return { cookie, user, id: project.id as number, base: `/api/projects/${project.id}` };
}

describe("members and invitations", () => {
  test("the creator owns the project; an invitee joins with the invited role and sees it in their list", async () => {
    const p = await ownedProject("Shared channel");
    expect((await stack.call("GET", p.base, undefined, p.cookie)).json.role).toBe("owner");

    const email = uniqueEmail("Editor");
    const invited = await stack.call("POST", `${p.base}/invitations`, { email: email.toUpperCase(), role: "editor" }, p.cookie);
    expect(invited.status, invited.text).toBe(201);
    expect(invited.json).toEqual({ id: expect.any(Number), email: email.toLowerCase(), role: "editor", expiresAt: expect.any(String) });
    const days = (new Date(invited.json.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    const mail = await stack.smtp.waitForMail(email);
    expect(mail.subject).toContain("Shared channel");
    const token = tokenFrom(mail.text);
    expect(token.length).toBeGreaterThanOrEqual(32);
    // the token is only in the mail: the database keeps its hash
    const [stored] = await stack.sql`select count(*)::int as n from app_public.project_invitations where encode(token_hash, 'escape') like ${"%" + token + "%"}`;
    expect(stored.n).toBe(0);

    const listed = await stack.call("GET", `${p.base}/members`, undefined, p.cookie);
    expect(listed.json.invitations).toEqual([expect.objectContaining({ email: email.toLowerCase(), role: "editor" })]);

    const { cookie } = await stack.signIn(email);
    const accepted = await stack.call("POST", `/api/invitations/${token}/accept`, undefined, cookie);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toEqual({ projectId: p.id, role: "editor" });
    const theirs = (await stack.call("GET", "/api/projects", undefined, cookie)).json;
    expect(theirs).toEqual([expect.objectContaining({ id: p.id, name: "Shared channel", role: "editor" })]);

    const members = (await stack.call("GET", `${p.base}/members`, undefined, cookie)).json;
    expect(members.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [p.user.email, "owner"],
      [email.toLowerCase(), "editor"],
    ]);
    expect(members.invitations).toEqual([]);

    // a link works once
    const again = await stack.call("POST", `/api/invitations/${token}/accept`, undefined, cookie);
    expect(again.status).toBe(410);
    expect(again.json.code).toBe("team.invitationGone");
  });

  test("a link for another address is refused and stays usable; a withdrawn or malformed one is gone", async () => {
    const p = await ownedProject();
    const email = uniqueEmail("invitee");
    const invited = await stack.call("POST", `${p.base}/invitations`, { email, role: "author" }, p.cookie);
    const token = tokenFrom((await stack.smtp.waitForMail(email)).text);
    const { cookie: someoneElse } = await stack.signIn(uniqueEmail("someone"));
    const wrong = await stack.call("POST", `/api/invitations/${token}/accept`, undefined, someoneElse);
    expect(wrong.status).toBe(403);
    expect(wrong.json.code).toBe("team.invitationForAnotherEmail");
    expect((await stack.call("GET", "/api/projects", undefined, someoneElse)).json).toEqual([]);

    expect((await stack.call("DELETE", `${p.base}/invitations/${invited.json.id}`, undefined, p.cookie)).status).toBe(200);
    const { cookie } = await stack.signIn(email);
    const withdrawn = await stack.call("POST", `/api/invitations/${token}/accept`, undefined, cookie);
    expect(withdrawn.status).toBe(410);
    expect((await stack.call("POST", "/api/invitations/not-a-token/accept", undefined, cookie)).status).toBe(410);
    expect((await stack.call("GET", `${p.base}/members`, undefined, p.cookie)).json.members).toHaveLength(1);
  });

  test("an expired invitation is gone", async () => {
    const p = await ownedProject();
    const email = uniqueEmail("late");
    const invited = await stack.call("POST", `${p.base}/invitations`, { email, role: "viewer" }, p.cookie);
    const token = tokenFrom((await stack.smtp.waitForMail(email)).text);
    await stack.sql`update app_public.project_invitations set expires_at = now() - interval '1 second' where id = ${invited.json.id}`;
    const { cookie } = await stack.signIn(email);
    expect((await stack.call("POST", `/api/invitations/${token}/accept`, undefined, cookie)).json.code).toBe("team.invitationGone");
  });

  test("roles change and members leave, but the last owner stays; a removed member is shut out at once", async () => {
    const p = await ownedProject();
    const editor = await addMember(stack, p.id, p.cookie, "editor");
    const viewer = await addMember(stack, p.id, p.cookie, "viewer");

    const demoteSelf = await stack.call("PATCH", `${p.base}/members/${p.user.id}`, { role: "editor" }, p.cookie);
    expect(demoteSelf.status).toBe(409);
    expect(demoteSelf.json.code).toBe("team.lastOwner");
    const leave = await stack.call("DELETE", `${p.base}/members/${p.user.id}`, undefined, p.cookie);
    expect(leave.json.code).toBe("team.lastOwner");

    // only an owner changes roles
    const byEditor = await stack.call("PATCH", `${p.base}/members/${viewer.user.id}`, { role: "editor" }, editor.cookie);
    expect(byEditor.status).toBe(403);
    expect(byEditor.json.code).toBe("team.forbidden");
    const badRole = await stack.call("PATCH", `${p.base}/members/${viewer.user.id}`, { role: "admin" }, p.cookie);
    expect(badRole.json.code).toBe("team.roleInvalid");

    const promoted = await stack.call("PATCH", `${p.base}/members/${editor.user.id}`, { role: "owner" }, p.cookie);
    expect(promoted.json).toMatchObject({ userId: editor.user.id, role: "owner" });
    // with a second owner, the first may step down
    expect((await stack.call("PATCH", `${p.base}/members/${p.user.id}`, { role: "editor" }, p.cookie)).status).toBe(200);
    expect((await stack.call("GET", p.base, undefined, p.cookie)).json.role).toBe("editor");

    // a member leaves by removing themself
    expect((await stack.call("DELETE", `${p.base}/members/${viewer.user.id}`, undefined, viewer.cookie)).status).toBe(200);
    const after = await stack.call("GET", `${p.base}/drafts`, undefined, viewer.cookie);
    expect(after.status).toBe(404);
    expect(after.json.code).toBe("projects.notFound");

    // the new owner removes the old one
    expect((await stack.call("DELETE", `${p.base}/members/${p.user.id}`, undefined, editor.cookie)).status).toBe(200);
    expect((await stack.call("GET", p.base, undefined, p.cookie)).status).toBe(404);
    expect((await stack.call("GET", "/api/projects", undefined, p.cookie)).json).toEqual([]);
  });

  test("a stranger sees nothing of the team and cannot invite", async () => {
    const p = await ownedProject();
    const { cookie: stranger } = await stack.signIn(uniqueEmail("stranger"));
    expect((await stack.call("GET", `${p.base}/members`, undefined, stranger)).status).toBe(404);
    const invite = await stack.call("POST", `${p.base}/invitations`, { email: uniqueEmail("x"), role: "owner" }, stranger);
    expect(invite.status).toBe(404);
    expect((await stack.sql`select count(*)::int as n from app_public.project_invitations where project_id = ${p.id}`)[0].n).toBe(0);
  });

  test("bad input is refused with a code and changes nothing", async () => {
    const p = await ownedProject();
    expect((await stack.call("POST", `${p.base}/invitations`, { email: "not-an-address", role: "editor" }, p.cookie)).json.code)
      .toBe("team.emailInvalid");
    expect((await stack.call("POST", `${p.base}/invitations`, { email: uniqueEmail("x"), role: "boss" }, p.cookie)).json.code)
      .toBe("team.roleInvalid");
    const self = await stack.call("POST", `${p.base}/invitations`, { email: p.user.email, role: "editor" }, p.cookie);
    expect(self.status).toBe(400);
    expect(self.json).toMatchObject({ code: "team.alreadyMember", params: { email: p.user.email } });
    expect((await stack.call("GET", `${p.base}/members`, undefined, p.cookie)).json.invitations).toEqual([]);
  });
});

describe("limits", () => {
  test("members per project count open invitations; a second invitation to one address replaces the first", async () => {
    const p = await ownedProject();
    const first = uniqueEmail("a");
    await stack.call("POST", `${p.base}/invitations`, { email: first, role: "viewer" }, p.cookie);
    await stack.smtp.waitForMail(first, 1);
    const replaced = await stack.call("POST", `${p.base}/invitations`, { email: first, role: "author" }, p.cookie);
    expect(replaced.status).toBe(201);
    // both mails go out (in either order); the first invitation's says "viewer"
    await stack.smtp.waitForMail(first, 2);
    const [oldMail, newMail] = ["наблюдатель", "автор"].map((role) => stack.smtp.mailsTo(first).find((m) => m.text.includes(`роль: ${role}`))!);
    const oldToken = tokenFrom(oldMail.text);
    await stack.call("POST", `${p.base}/invitations`, { email: uniqueEmail("b"), role: "viewer" }, p.cookie);
    await stack.call("POST", `${p.base}/invitations`, { email: uniqueEmail("c"), role: "viewer" }, p.cookie);
    // the owner and three open invitations: MEMBERS_PER_PROJECT=4
    const over = await stack.call("POST", `${p.base}/invitations`, { email: uniqueEmail("d"), role: "viewer" }, p.cookie);
    expect(over.status).toBe(409);
    expect(over.json).toMatchObject({ code: "team.membersLimit", params: { max: 4 } });
    const { cookie } = await stack.signIn(first);
    expect((await stack.call("POST", `/api/invitations/${oldToken}/accept`, undefined, cookie)).json.code).toBe("team.invitationGone");
    const newToken = tokenFrom(newMail.text);
    expect((await stack.call("POST", `/api/invitations/${newToken}/accept`, undefined, cookie)).json.role).toBe("author");
  });

  test("an account sends a bounded number of invitations a day, and an address gets no more mail than sign-in allows", async () => {
    const { cookie, user } = await stack.signIn(uniqueEmail("sender"));
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await stack.call("POST", "/api/projects", { name: `P${i}`, adminHandle: "team_admin" }, cookie)).json.id);
    }
    // one address, three mails in 10 minutes at most, invitations and sign-in codes together
    const target = uniqueEmail("target");
    await stack.call("POST", "/api/auth/request-otp", { email: target });
    expect((await stack.call("POST", `/api/projects/${ids[0]}/invitations`, { email: target, role: "viewer" }, cookie)).status).toBe(201);
    expect((await stack.call("POST", `/api/projects/${ids[1]}/invitations`, { email: target, role: "viewer" }, cookie)).status).toBe(201);
    const busy = await stack.call("POST", `/api/projects/${ids[0]}/invitations`, { email: target, role: "editor" }, cookie);
    expect(busy.status, busy.text).toBe(429);
    expect(busy.json.code).toBe("team.addressBusy");

    // INVITATIONS_PER_DAY=6: two sent above, four more, then refused with a wait
    for (let i = 0; i < 4; i++) {
      const sent = await stack.call("POST", `/api/projects/${ids[i % 2]}/invitations`, { email: uniqueEmail(`n${i}`), role: "viewer" }, cookie);
      expect(sent.status, sent.text).toBe(201);
    }
    // a project with room (MEMBERS_PER_PROJECT is not what refuses)
    const over = await stack.call("POST", `/api/projects/${ids[2]}/invitations`, { email: uniqueEmail("over"), role: "viewer" }, cookie);
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ code: "team.tooManyInvitations", params: { max: 6 } });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    const [sent] = await stack.sql`select count(*)::int as n from app_public.project_invitations where invited_by = ${user.id}`;
    expect(sent.n).toBe(6);
  });
});

describe("accounts", () => {
  test("deleting an account takes its own projects, leaves shared ones, and refuses while it is a shared project's last owner", async () => {
    const p = await ownedProject("Agency client");
    const own = (await stack.call("POST", "/api/projects", { name: "Mine alone", adminHandle: "team_admin" }, p.cookie)).json;
    const editor = await addMember(stack, p.id, p.cookie, "editor");

    const refused = await stack.call("DELETE", "/api/auth/user", undefined, p.cookie);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: "account.ownsSharedProject", params: { project: "Agency client" } });
    expect((await stack.call("GET", "/api/projects", undefined, p.cookie)).json).toHaveLength(2);

    await stack.call("PATCH", `${p.base}/members/${editor.user.id}`, { role: "owner" }, p.cookie);
    const deleted = await stack.call("DELETE", "/api/auth/user", undefined, p.cookie);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await stack.call("GET", "/api/auth/user", undefined, p.cookie)).status).toBe(401);
    // the shared project stays with its team, now carried by its remaining owner; the other is gone
    const left = await stack.call("GET", p.base, undefined, editor.cookie);
    expect(left.json).toMatchObject({ name: "Agency client", role: "owner", userId: editor.user.id });
    expect((await stack.sql`select count(*)::int as n from app_public.projects where id = ${own.id}`)[0].n).toBe(0);
    const members = (await stack.call("GET", `${p.base}/members`, undefined, editor.cookie)).json.members;
    expect(members.map((m: { userId: number }) => m.userId)).toEqual([editor.user.id]);
  });

  test("the account that carries a project (its AI budget, its owner's mail) is always one of its owners", async () => {
    const p = await ownedProject();
    const second = await addMember(stack, p.id, p.cookie, "owner");
    // the creator steps down: the project passes to the other owner
    await stack.call("PATCH", `${p.base}/members/${p.user.id}`, { role: "viewer" }, p.cookie);
    expect((await stack.call("GET", p.base, undefined, second.cookie)).json.userId).toBe(second.user.id);
    // the former creator's project quota no longer counts it
    const [counted] = await stack.sql`select count(*)::int as n from app_public.projects where user_id = ${p.user.id}`;
    expect(counted.n).toBe(0);
  });
});

describe("each member's language", () => {
  test("a member's mail is in the language they read Pressa in, not the project's", async () => {
    const p = await ownedProject("Русский канал");
    const author = await addMember(stack, p.id, p.cookie, "author");
    const bad = await stack.call("PUT", "/api/auth/language", { language: "de" }, author.cookie);
    expect(bad.json.code).toBe("auth.languageInvalid");
    expect((await stack.call("PUT", "/api/auth/language", { language: "en" }, author.cookie)).status).toBe(200);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const post = (await stack.call("POST", `${p.base}/posts`, { scheduledFor: at, title: "Draft of mine", content: "Text", writeDraft: true }, author.cookie)).json;
    expect(post.status).toBe("in_review");
    // the owner has chosen nothing: the project's language
    const toOwner = await stack.smtp.waitForMail(p.user.email, 2);
    expect(toOwner.subject).toMatch(/проверк/i);
    const before = stack.smtp.mailsTo(author.email).length;
    await stack.call("POST", `${p.base}/posts/${post.id}/review`, { decision: "return", comment: "Shorter" }, p.cookie);
    const returned = await stack.smtp.waitForMail(author.email, before + 1);
    expect(returned.subject).toBe("Pressa: the post “Draft of mine” was returned to you");
    expect(returned.text).toContain("Comment: Shorter");
  });
});
