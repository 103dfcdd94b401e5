/*
 * Sends one webhook delivery (docs/api.md "Webhooks"): a POST of the event, signed as the
 * Standard Webhooks specification says, to an address checked again now, after DNS: public
 * https only. No redirect is followed, the answer is awaited 10 s at most and read no further
 * than 4 KB. A non-2xx answer, no answer or a refused address is retried by graphile-worker
 * with growing gaps under the same webhook-id (10 tries over about 4 hours); the last fails
 * the delivery. The endpoint's own queue runs its deliveries one at a time, in order, in the
 * webhook runner, so a receiver that hangs holds back nothing but its own deliveries.
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { refuseTarget } from "../core/public_address.ts";
import { webhookSignature } from "../contract/webhooks.ts";

const Payload = v.object({ deliveryId: v.number() });
export const WEBHOOK_TIMEOUT_MS = 10_000;
const ANSWER_READ_MAX = 4096;

type ToSend = { url: string; secret: string; messageId: string; eventType: string; payload: unknown; waitsForEarlier: boolean };

/** Reads at most `max` bytes of an answer's body, then lets the rest go. */
async function readBounded(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])).slice(0, max));
}

export function deliverWebhook(sql: Sql, options: { allowPrivate: boolean }): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("webhooks__deliver: malformed payload, dropped");
    const { deliveryId } = parsed.output;
    const [delivery] = await sql<ToSend[]>`select * from app_public.webhook_delivery_to_send(${deliveryId})`;
    if (!delivery) return; // delivered, removed, or its endpoint switched off
    // an earlier event of the same post has not gone yet: this one follows it
    if (delivery.waitsForEarlier) throw new Error("an earlier event of this post is still pending");
    const final = helpers.job.attempts >= helpers.job.max_attempts;
    const refused = await refuseTarget(delivery.url, options.allowPrivate);
    if (refused) {
      await sql`select app_public.record_webhook_attempt(${deliveryId}, false, null, ${`target refused: ${refused}`}, ${final})`;
      if (!final) throw new Error(`webhook target refused (${refused})`);
      return;
    }
    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(delivery.url, {
        method: "POST",
        redirect: "manual",
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        headers: {
          "content-type": "application/json",
          "user-agent": "Pressa-Webhooks/1",
          "webhook-id": delivery.messageId,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": await webhookSignature(delivery.secret, delivery.messageId, timestamp, body),
        },
        body,
      });
      status = res.status;
      const answer = await readBounded(res, ANSWER_READ_MAX);
      if (status < 200 || status >= 300) error = `HTTP ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}: ${answer.slice(0, 200)}`;
    } catch (err) {
      error = err instanceof DOMException && err.name === "TimeoutError" ? `no answer in ${WEBHOOK_TIMEOUT_MS / 1000} s` : String(err);
    }
    await sql`select app_public.record_webhook_attempt(${deliveryId}, ${error === null}, ${status}, ${error}, ${final})`;
    if (error !== null && !final) throw new Error(`webhook delivery failed: ${error}`);
  };
}
