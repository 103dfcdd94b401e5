import useSWR, { mutate } from "swr";
import type { Invitation, InvitationAccepted, Member, Members, Role } from "../../../contract/team.ts";
import { apiFetch } from "./fetcher.ts";
import { PROJECTS_KEY, PROJECTS_OVERVIEW_KEY, projectKey } from "./projects.ts";

/** A project's team (docs/teams.md): its members and open invitations, and an invitation's link. */
export const membersKey = (projectId: number) => `/api/projects/${projectId}/members`;

export function useMembers(projectId: number | null) {
  const { data, error, isLoading, mutate } = useSWR<Members>(projectId === null ? null : membersKey(projectId));
  return { members: data?.members ?? [], invitations: data?.invitations ?? [], isLoading, error: error as unknown, mutate };
}

export async function inviteMember(projectId: number, input: { email: string; role: Role }): Promise<Invitation> {
  const invitation = await apiFetch<Invitation>(`/api/projects/${projectId}/invitations`, { method: "POST", body: input });
  await mutate<Members>(membersKey(projectId), (team) => team && { ...team, invitations: [...team.invitations, invitation] }, {
    revalidate: false,
  });
  return invitation;
}

export async function withdrawInvitation(projectId: number, invitationId: number): Promise<void> {
  await apiFetch(`/api/projects/${projectId}/invitations/${invitationId}`, { method: "DELETE" });
  await mutate<Members>(
    membersKey(projectId),
    (team) => team && { ...team, invitations: team.invitations.filter((item) => item.id !== invitationId) },
    { revalidate: false },
  );
}

export async function changeMemberRole(projectId: number, userId: number, role: Role): Promise<Member> {
  const member = await apiFetch<Member>(`${membersKey(projectId)}/${userId}`, { method: "PATCH", body: { role } });
  await mutate<Members>(
    membersKey(projectId),
    (team) => team && { ...team, members: team.members.map((item) => (item.userId === userId ? member : item)) },
    { revalidate: false },
  );
  // the owner may have changed their own role: every page reads it from the project
  void mutate(projectKey(projectId));
  void mutate(PROJECTS_KEY);
  return member;
}

/** An owner removes a member, or a member leaves (their own id). */
export async function removeMember(projectId: number, userId: number, leaving: boolean): Promise<void> {
  await apiFetch(`${membersKey(projectId)}/${userId}`, { method: "DELETE" });
  if (leaving) {
    void mutate<{ id: number }[]>(PROJECTS_KEY, (list) => list?.filter((item) => item.id !== projectId));
    void mutate(PROJECTS_OVERVIEW_KEY);
    return;
  }
  await mutate<Members>(
    membersKey(projectId),
    (team) => team && { ...team, members: team.members.filter((item) => item.userId !== userId) },
    { revalidate: false },
  );
}

export async function acceptInvitation(token: string): Promise<InvitationAccepted> {
  const accepted = await apiFetch<InvitationAccepted>(`/api/invitations/${encodeURIComponent(token)}/accept`, { method: "POST" });
  await Promise.all([mutate(PROJECTS_KEY), mutate(PROJECTS_OVERVIEW_KEY)]);
  return accepted;
}
