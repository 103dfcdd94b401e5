/*
 * A project's team as its people make it: the owner invites an address through the API, the
 * invitee signs in and accepts with the token the delivered mail carries.
 */
import type { Role } from "../../contract/team.ts";
import { type Stack, uniqueEmail } from "./stack.ts";

/** The invitation link's token from a delivered mail. */
export function tokenFrom(text: string): string {
  const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no invitation link in: ${text}`);
  return token;
}

/** Invites a new account with `role` to the project and accepts; answers its cookie and id. */
export async function addMember(stack: Stack, projectId: number, ownerCookie: string, role: Role, prefix: string = role) {
  const email = uniqueEmail(prefix);
  const invited = await stack.call("POST", `/api/projects/${projectId}/invitations`, { email, role }, ownerCookie);
  if (invited.status !== 201) throw new Error(`invitation: ${invited.text}`);
  const mail = await stack.smtp.waitForMail(email);
  const { cookie, user } = await stack.signIn(email);
  const accepted = await stack.call("POST", `/api/invitations/${tokenFrom(mail.text)}/accept`, undefined, cookie);
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.text}`);
  return { cookie, user, email };
}
