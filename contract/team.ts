/*
 * Teams (shared contract, docs/teams.md): a project's members, each with one role, and the
 * invitations that bring them in. What each role may do is app_private.role_actions in SQL,
 * its only home; the SPA reads ROLE_CAN below only to hide what a role cannot use.
 */
import * as v from "valibot";

export const ROLES = ["owner", "editor", "author", "viewer"] as const;
export type Role = (typeof ROLES)[number];

const RoleSchema = v.picklist(ROLES, "team.roleInvalid");

export const InvitationCreateSchema = v.object({
  email: v.pipe(
    v.optional(v.string("team.emailInvalid"), ""),
    v.trim(),
    v.toLowerCase(),
    v.maxLength(254, "team.emailInvalid"),
    v.email("team.emailInvalid"),
  ),
  role: RoleSchema,
});

export const MemberUpdateSchema = v.object({ role: RoleSchema });

/** The link's token: 43 base64url characters (32 random bytes) as the mail carries it. */
export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;

export type Member = { userId: number; email: string; role: Role; joinedAt: string };
export type Invitation = { id: number; email: string; role: Role; createdAt: string; expiresAt: string };
export type Members = { members: Member[]; invitations: Invitation[] };
export type InvitationAccepted = { projectId: number; role: Role };

/**
 * What the SPA shows each role, mirroring app_private.role_actions (tests/api/roles.test.ts
 * holds them equal): a control a role cannot use is not shown. The database still decides.
 */
export const ROLE_CAN = {
  owner: ["project.read", "project.update", "project.delete", "channel.manage", "members.manage", "drafts.write", "ai.use",
    "posts.write", "posts.publish", "posts.review", "plans.write", "invite_links.manage", "comments.write", "webhooks.manage"],
  editor: ["project.read", "drafts.write", "ai.use", "posts.write", "posts.publish", "posts.review", "plans.write",
    "invite_links.manage", "comments.write", "webhooks.manage"],
  author: ["project.read", "drafts.write", "ai.use", "posts.write", "comments.write"],
  viewer: ["project.read"],
} as const satisfies Record<Role, readonly string[]>;
export type Action = (typeof ROLE_CAN)["owner"][number];

export function roleCan(role: Role | undefined, action: Action): boolean {
  return role !== undefined && (ROLE_CAN[role] as readonly string[]).includes(action);
}
