/*
 * A project's team (docs/teams.md): its members and invitations, and accepting an
 * invitation's link. Each handler is one SQL call; who may do what is decided there
 * (app_private.authorize).
 */
import { Hono } from "hono";
import {
  INVITATION_TOKEN_PATTERN,
  InvitationCreateSchema,
  type Invitation,
  type InvitationAccepted,
  type Member,
  MemberUpdateSchema,
} from "../../contract/team.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { body, idParam } from "../validate.ts";
import { ApiError } from "../../core/errors.ts";
import { randomToken } from "../random_token.ts";
import { dbOf, idempotent } from "../middleware/idempotency.ts";

/** The link cannot be guessed, and only the mail carries it. */
const invitationToken = randomToken;

export function memberRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      const [members, invitations] = await sql.begin((tx) => [
        tx<Member[]>`select * from app_public.project_members(${userId}, ${projectId})`,
        tx<Invitation[]>`select * from app_public.open_invitations(${userId}, ${projectId})`,
      ]);
      return c.json({ members, invitations });
    })
    .patch("/:userId", body(MemberUpdateSchema), async (c) => {
      const [member] = await sql<Member[]>`
        select * from app_public.change_member_role(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("userId"))}, ${c.req.valid("json").role})`;
      return c.json(member);
    })
    // an owner removes a member, or a member leaves (their own id)
    .delete("/:userId", async (c) => {
      await sql`select app_public.remove_member(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
        ${idParam(c.req.param("userId"))})`;
      return c.json({ ok: true });
    });
}

export function invitationRoutes({ sql, config }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .post("/", idempotent(sql), body(InvitationCreateSchema), async (c) => {
      const { email, role } = c.req.valid("json");
      const [row] = await dbOf(c, sql)<(Invitation & { projectId: number })[]>`
        select id, email, role, expires_at from app_public.invite_member(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${email}, ${role}, ${invitationToken()}, ${config.limits.membersPerProject}, ${config.limits.invitationsPerDay})`;
      return c.json(row, 201);
    })
    .delete("/:invitationId", async (c) => {
      await sql`select app_public.withdraw_invitation(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
        ${idParam(c.req.param("invitationId"))})`;
      return c.json({ ok: true });
    });
}

/** POST /api/invitations/{token}/accept: the signed-in account joins with the invited role. */
export function acceptInvitationRoutes({ sql, config }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .post("/:token/accept", async (c) => {
      const token = c.req.param("token");
      // a malformed link is one that was never sent: gone, as a withdrawn one
      if (!INVITATION_TOKEN_PATTERN.test(token)) throw new ApiError("team.invitationGone");
      const [accepted] = await sql<InvitationAccepted[]>`
        select * from app_public.accept_invitation(${currentUser(c).id}, ${token}, ${config.limits.membersPerProject})`;
      return c.json(accepted);
    });
}
