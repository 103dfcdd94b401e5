/*
 * Mails an invitation's link (app_public.invite_member queued it in the same transaction).
 * The token travels only in this job's payload and the mail; the database keeps its hash.
 * An invitation withdrawn, replaced or accepted before the mail went out is not mailed.
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { type InvitationFacts, INVITATION_WORDS } from "../texts/mail.ts";
import type { Mail, Mailer } from "./mailer.ts";
import { INVITATION_TOKEN_PATTERN } from "../contract/team.ts";

const Payload = v.object({ invitationId: v.number(), token: v.pipe(v.string(), v.regex(INVITATION_TOKEN_PATTERN)) });

export function invitationMail(facts: InvitationFacts, token: string, publicUrl: string): Mail {
  const language = facts.language === "en" ? "en" : "ru";
  const words = INVITATION_WORDS[language];
  const until = new Intl.DateTimeFormat(language === "en" ? "en-GB" : "ru-RU", { day: "numeric", month: "long", year: "numeric" })
    .format(new Date(facts.expiresAt));
  const link = `${publicUrl}/invite/${token}`;
  return { to: facts.email, subject: words.subject(facts), text: words.lines(facts, words.roles[facts.role], until, link).join("\n") };
}

export function sendInvitation(sql: Sql, mailer: Mailer, publicUrl: string): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("team__send_invitation: malformed payload, dropped");
    const [facts] = await sql<(InvitationFacts & { open: boolean })[]>`
      select * from app_public.invitation_mail(${parsed.output.invitationId})`;
    if (!facts?.open) return;
    await mailer.send(invitationMail(facts, parsed.output.token, publicUrl));
  };
}
