/*
 * A real SMTP server in the test process (npm smtp-server). The product's nodemailer
 * delivers to it over TCP; tests read what arrived, parsed by mailparser.
 */
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { to: string[]; subject: string; text: string };

export async function startSmtpSink() {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((parsed) => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    mailsTo: (to: string) => mails.filter((m) => m.to.includes(to.toLowerCase())),
    /** Resolves with the n-th mail (1-based) to an address, or fails after timeoutMs. */
    async waitForMail(to: string, nth = 1, timeoutMs = 10_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const found = mails.filter((m) => m.to.includes(to.toLowerCase()));
        if (found.length >= nth) return found[nth - 1];
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail #${nth} to ${to} within ${timeoutMs} ms (got ${found.length})`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, Math.min(left, 200));
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The six-digit code in a sign-in mail. */
export function codeFrom(mail: ReceivedMail): string {
  const match = mail.text.match(/\b(\d{6})\b/);
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1];
}
