/*
 * Outgoing e-mail. With SMTP_URL, nodemailer delivers through that server (one pooled
 * connection); without it the message is written to the log so a developer can sign in
 * on a machine with no mail server — only while PUBLIC_URL is a loopback address. With a
 * public one the processes refuse to start (core/startup_checks.ts); should a worker run
 * anyway, sending fails with the reason and the message (a sign-in code) is never logged.
 */
import nodemailer from "nodemailer";
import type { Config } from "../core/config.ts";
import type { Log } from "../core/log.ts";
import { mailToLogProblem } from "../core/startup_checks.ts";

export type Mail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

export function createMailer(config: Config, log: Log): Mailer {
  if (!config.smtpUrl) {
    const problem = mailToLogProblem(config);
    return {
      send(mail) {
        if (problem) return Promise.reject(new Error(`e-mail not sent: ${problem}`));
        log("warn", "SMTP_URL is not set; e-mail written to the log instead of sent", {
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        });
        return Promise.resolve();
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl, { from: config.mailFrom });
  return {
    async send(mail) {
      await transport.sendMail({ ...mail, from: config.mailFrom });
    },
    close() {
      transport.close();
    },
  };
}
