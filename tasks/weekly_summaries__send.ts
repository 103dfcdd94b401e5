/*
 * Mails one project's weekly summary to its owner (docs/autopilot-and-ai.md "Notifications"): the growth, the
 * top post, the invite link that brought the most joins and a line about the queue, in the
 * project's language like every notification. What it says is read when it is sent; nothing
 * is sent when the owner switched the summary off meanwhile or the channel is gone.
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { signedCount } from "../contract/counts.ts";
import { NOTIFICATION_WORDS, type WeeklySummaryWords } from "../texts/mail.ts";
import type { Mail, Mailer } from "./mailer.ts";

const Payload = v.object({ projectId: v.number(), week: v.pipe(v.string(), v.isoDate()) });

/** What app_public.weekly_summary answers. */
export type WeeklySummaryFacts = {
  email: string;
  projectName: string;
  language: string;
  timezone: string;
  weekFrom: string;
  weekUntil: string;
  subscribers: number | null;
  subscribersWeekAgo: number | null;
  joins: number;
  leaves: number;
  postsPublished: number;
  topPostTitle: string | null;
  topPostReactions: number | null;
  topPostUrl: string | null;
  topLinkName: string | null;
  topLinkJoins: number | null;
  draftsLeft: number;
  plannedNextWeek: number;
  inReview: number;
  awaitingApproval: number;
  failed: number;
  uncertain: number;
};

/** The summary's mail, in the project's language and timezone. */
export function weeklySummaryMail(f: WeeklySummaryFacts, projectId: number, publicUrl: string): Mail {
  const language = f.language === "en" ? "en" : "ru";
  const words = NOTIFICATION_WORDS[language];
  const locale = language === "en" ? "en-GB" : "ru-RU";
  const number = (n: number) => new Intl.NumberFormat(locale).format(n);
  const day = new Intl.DateTimeFormat(locale, { timeZone: f.timezone, day: "numeric", month: "long" });
  // the last day summed up is the one before the pass's moment (a Monday morning)
  const period = `${day.format(new Date(f.weekFrom))} – ${day.format(new Date(Date.parse(f.weekUntil) - 60_000))}`;
  const change = f.subscribers === null || f.subscribersWeekAgo === null ? null : f.subscribers - f.subscribersWeekAgo;
  const summary: WeeklySummaryWords = {
    projectName: f.projectName,
    period,
    subscribers: f.subscribers === null ? null : number(f.subscribers),
    change: change === null ? null : signedCount(change, number),
    joins: number(f.joins),
    leaves: number(f.leaves),
    postsPublished: f.postsPublished,
    topPost: f.topPostTitle !== null && f.topPostReactions !== null
      ? { title: f.topPostTitle, reactions: number(f.topPostReactions), url: f.topPostUrl }
      : null,
    topLink: f.topLinkName !== null && f.topLinkJoins !== null ? { name: f.topLinkName, joins: number(f.topLinkJoins) } : null,
    draftsLeft: number(f.draftsLeft),
    plannedNextWeek: number(f.plannedNextWeek),
    inReview: f.inReview,
    awaitingApproval: f.awaitingApproval,
    failures: f.failed + f.uncertain,
  };
  const { subject, lines } = words.weeklySummary(summary);
  const [head, ...rest] = lines;
  const link = `${publicUrl}/project/${projectId}`;
  return { to: f.email, subject, text: [head, "", ...rest.filter(Boolean), "", `${words.open} ${link}`, "", words.footer].join("\n") };
}

export function sendWeeklySummary(sql: Sql, mailer: Mailer, publicUrl: string): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("weekly_summaries__send: malformed payload, dropped");
    const { projectId, week } = parsed.output;
    const [facts] = await sql<WeeklySummaryFacts[]>`select * from app_public.weekly_summary(${projectId}, ${week})`;
    if (!facts) return; // switched off meanwhile, the channel or the project gone
    await mailer.send(weeklySummaryMail(facts, projectId, publicUrl));
  };
}
