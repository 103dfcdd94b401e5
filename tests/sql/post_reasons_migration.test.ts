/*
 * Reasons stored as English sentences before they were codes: migration 44 maps each known
 * form to its code and params once (the only place the sentences are still read), and
 * words nobody wrote by a known form to posts.error.other with the words as a param. Run
 * here on rows as they were, against a posts table that still has its last_error.
 */
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { inRollback, seedProject } from "../helpers/sql.ts";

let sql: postgres.Sql;
beforeAll(async () => {
  sql = postgres(await freshDatabase(), { max: 2, onnotice: () => {} });
});
afterAll(() => sql.end());

const MARKER = "-- A post's reason is stored as a code with its params";

/** The migration, wherever it is now (current/ while it is worked on, committed/ after). */
async function migration(): Promise<string> {
  for (const dir of ["sql/migrations/current/", "sql/migrations/committed/"]) {
    const url = new URL(`../../${dir}`, import.meta.url);
    for await (const entry of Deno.readDir(url)) {
      const text = await Deno.readTextFile(new URL(entry.name, url));
      if (text.includes(MARKER)) return text;
    }
  }
  throw new Error("the reasons-as-codes migration is gone");
}

const OLD = [
  ["@olga_admin is no longer an administrator of @city_news who may post messages", "posts.error.approverLost", { handle: "olga_admin", channel: "@city_news" }],
  ["The bot is no longer an administrator of @city_news who may post messages", "posts.error.botLost", { channel: "@city_news" }],
  [
    "The channel @city_news was disconnected before this post went out; publish it again to send it for approval",
    "posts.error.channelDisconnected",
    { channel: "@city_news" },
  ],
  ["The channel changed after this post was approved; publish it again to send it for approval", "posts.error.channelChanged", {}],
  ["The Telegram bot is not configured on the server", "posts.error.botNotConfigured", {}],
  ["The project has no connected channel", "posts.error.noChannel", {}],
  ["The project's admin has not messaged the bot yet", "posts.error.adminNotRegistered", {}],
  ["The post's image is missing from storage", "posts.error.imageMissing", {}],
  ["The worker stopped while sending; the post may or may not be in the channel", "posts.error.workerStopped", {}],
  ["schedule.seriesOutOfDrafts", "schedule.seriesOutOfDrafts", {}],
  ["Connect a channel before publishing", "schedule.noChannelToPublish", {}],
  ["schedule.captionTooLong: 5000/4096", "schedule.captionTooLong", { current: 5000, max: 4096 }],
  [
    "The AI could not write this post (The AI took too long to answer. Please try again.); it keeps its draft as it is",
    "posts.error.autopilotNoAi",
    { reason: "ai.timeout" },
  ],
  ["The AI could not write this post (model overloaded); it keeps its draft as it is", "posts.error.autopilotNoAi", { reason: "model overloaded" }],
  [
    "Telegram: Network request for 'sendMessage' failed (the photo is in the channel; the text may not be)",
    "posts.error.textUncertain",
    { description: "Network request for 'sendMessage' failed" },
  ],
  [
    "Telegram: Forbidden: no rights. The photo went out without its text and could not be removed: Bad Request: message can't be deleted",
    "posts.error.photoAlone",
    { description: "Forbidden: no rights", removal: "Bad Request: message can't be deleted" },
  ],
  ["Telegram refused to deliver the approval request: Forbidden: bot was blocked by the user", "posts.error.approvalUndelivered", {
    description: "Forbidden: bot was blocked by the user",
  }],
  ["Telegram refused the edit: Bad Request: message to edit not found", "posts.error.editRefused", { description: "Bad Request: message to edit not found" }],
  ["Telegram: Bad Request: chat not found", "posts.error.telegram", { description: "Bad Request: chat not found" }],
  ["Something nobody wrote by a form", "posts.error.other", { text: "Something nobody wrote by a form" }],
] as const;

test("every stored sentence becomes its code with its names and numbers; an unknown one keeps its words as a param", async () => {
  const text = await migration();
  await inRollback(sql, async (tx) => {
    const { project } = await seedProject(tx);
    await tx`alter table app_public.posts add column last_error text`;
    const ids: string[] = [];
    for (const [sentence] of OLD) {
      const [row] = await tx`insert into app_public.posts (project_id, title, scheduled_for, last_error)
                             values (${project.id}, 'Old', now(), ${sentence}) returning id`;
      ids.push(row.id);
    }
    const [untouched] = await tx`insert into app_public.posts (project_id, title, scheduled_for) values (${project.id}, 'Fine', now()) returning id`;
    // its data part: the functions it made then have been replaced since, and the delivery
    // record it also altered is a view now (migration 56): a stand-in of that record, rolled back
    await tx`create type app_public.post_delivery as (post_id bigint, last_error text)`;
    await tx.unsafe(text.split(/^--! split: \d+-sql-functions\.sql$/m)[0]);
    for (const [i, [sentence, code, params]] of OLD.entries()) {
      const [row] = await tx`select last_error_code, last_error_params from app_public.posts where id = ${ids[i]}`;
      expect(row, sentence).toEqual({ last_error_code: code, last_error_params: params });
    }
    expect((await tx`select last_error_code, last_error_params from app_public.posts where id = ${untouched.id}`)[0])
      .toEqual({ last_error_code: null, last_error_params: {} });
    // the words are gone for good: nothing can match on them again
    const [column] = await tx`select count(*)::int as n from information_schema.columns
                              where table_schema = 'app_public' and table_name = 'posts' and column_name = 'last_error'`;
    expect(column.n).toBe(0);
  });
});
