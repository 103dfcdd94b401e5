/*
 * Mails a sign-in code. The address's language is unknown before sign-in, so the mail
 * carries Russian first (the product's default) and English below.
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { signInCodeMail } from "../texts/mail.ts";
import type { Mailer } from "./mailer.ts";

const Payload = v.object({ email: v.string(), code: v.pipe(v.string(), v.regex(/^\d{6}$/)) });

export function sendSignInCode(mailer: Mailer, sql: Sql): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) {
      helpers.logger.error(`sign_in_codes__send: malformed payload, dropped`);
      return;
    }
    await mailer.send({ to: parsed.output.email, ...signInCodeMail(parsed.output.code) });
    // The delay since the request, for GET /metrics (the job was queued in the request's
    // transaction). The mail is out: a failure here must not fail the job, whose retry
    // would mail the code again.
    try {
      await sql`select app_public.record_sign_in_mail_metric(${helpers.job.created_at})`;
    } catch (error) {
      helpers.logger.warn(`sign_in_codes__send: the mail delay was not recorded: ${(error as Error).message}`);
    }
  };
}
