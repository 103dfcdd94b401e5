/*
 * Sends one webhook delivery (docs/api.md "Webhooks"): a POST of the event, signed as the
 * Standard Webhooks specification says, to an address checked again now, after DNS: public
 * https only, and connected to exactly the addresses checked (no second DNS answer can name a
 * private one; TLS still verifies the URL's host name). No redirect is followed, the answer is
 * awaited 10 s at most and read no further than 4 KB. A non-2xx answer, no answer or a refused
 * address is retried by graphile-worker with growing gaps under the same webhook-id (10 tries
 * over about 3.6 hours, exp(n) s after the n-th); the last fails the delivery. A delivery's job
 * exists only once it may go (a post's events in order: app_private.queue_webhook_delivery), so
 * every try is a real one. The endpoint's own queue runs its deliveries one at a time in the
 * webhook runner, so a receiver that hangs holds back nothing but its own deliveries.
 */
import { Buffer } from "node:buffer";
import http from "node:http";
import https from "node:https";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { checkTarget, type Resolve } from "../core/public_address.ts";
import { webhookSignature } from "../contract/webhooks.ts";

const Payload = v.object({ deliveryId: v.number() });
export const WEBHOOK_TIMEOUT_MS = 10_000;
const ANSWER_READ_MAX = 4096;

type ToSend = { url: string; secret: string; messageId: string; eventType: string; payload: unknown };

type Answer = { status: number; text: string };

/**
 * POSTs to `url` connected to one of `addresses` (the ones checked), never to what DNS answers
 * now; TLS still sends the URL's host as SNI and verifies the certificate against it, and Host
 * names it too. No redirect is followed; the answer, body included, is awaited `WEBHOOK_TIMEOUT_MS`
 * at most and read no further than `ANSWER_READ_MAX` bytes. `ca` is a test's own trusted root.
 */
function postPinned(url: string, addresses: string[], headers: Record<string, string>, body: string, ca?: string): Promise<Answer> {
  const pinned = (_host: string, options: { all?: boolean }, done: (...result: unknown[]) => void) => {
    const found = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    if (options?.all) done(null, found);
    else done(null, found[0].address, found[0].family);
  };
  return new Promise((resolve, reject) => {
    const send = url.startsWith("https:") ? https.request : http.request;
    const req = send(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      agent: false, // a connection of its own, made now to this check's addresses
      ...(addresses.length > 0 ? { lookup: pinned as never } : {}),
      ...(ca ? { ca } : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).subarray(0, ANSWER_READ_MAX).toString() });
        res.destroy(); // the rest of a long answer is let go
      };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= ANSWER_READ_MAX) finish();
      });
      res.on("end", finish);
      res.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    // a settled promise ignores what the destroyed request reports afterwards
    const timer = setTimeout(() => {
      reject(new DOMException("no answer", "TimeoutError"));
      req.destroy();
    }, WEBHOOK_TIMEOUT_MS);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}

/** `resolve` and `ca` stand in for DNS and the public roots in tests; the worker passes neither. */
export function deliverWebhook(sql: Sql, options: { allowPrivate: boolean; resolve?: Resolve; ca?: string }): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("webhooks__deliver: malformed payload, dropped");
    const { deliveryId } = parsed.output;
    const [delivery] = await sql<ToSend[]>`select * from app_public.webhook_delivery_to_send(${deliveryId})`;
    if (!delivery) return; // delivered, removed, or its endpoint switched off
    const final = helpers.job.attempts >= helpers.job.max_attempts;
    const target = await checkTarget(delivery.url, options.allowPrivate, options.resolve);
    if (target.refused) {
      const refused = target.refused;
      await sql`select app_public.record_webhook_attempt(${deliveryId}, false, null, ${`target refused: ${refused}`}, ${final})`;
      if (!final) throw new Error(`webhook target refused (${refused})`);
      return;
    }
    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const answer = await postPinned(delivery.url, target.addresses, {
        "content-type": "application/json",
        "user-agent": "Pressa-Webhooks/1",
        "webhook-id": delivery.messageId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": await webhookSignature(delivery.secret, delivery.messageId, timestamp, body),
      }, body, options.ca);
      status = answer.status;
      if (status < 200 || status >= 300) error = `HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}: ${answer.text.slice(0, 200)}`;
    } catch (err) {
      error = err instanceof DOMException && err.name === "TimeoutError" ? `no answer in ${WEBHOOK_TIMEOUT_MS / 1000} s` : String(err);
    }
    await sql`select app_public.record_webhook_attempt(${deliveryId}, ${error === null}, ${status}, ${error}, ${final})`;
    if (error !== null && !final) throw new Error(`webhook delivery failed: ${error}`);
  };
}
