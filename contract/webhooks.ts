/*
 * Webhooks (shared contract, DESIGN.md "Webhooks"; docs/api.md): a project's endpoints, the
 * events they get, and their deliveries, signed as the Standard Webhooks specification says.
 */
import * as v from "valibot";

export const WEBHOOK_EVENTS = [
  "post.scheduled", "post.in_review", "post.approval_requested", "post.approved", "post.rejected", "post.published",
  "post.failed", "post.edited", "post.deleted", "draft.created", "channel.connected", "member.joined",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const UrlSchema = v.pipe(v.string("webhooks.urlInvalid"), v.trim(), v.maxLength(2000, "webhooks.urlInvalid"), v.url("webhooks.urlInvalid"),
  v.regex(/^https?:\/\//i, "webhooks.urlInvalid"));
const EventsSchema = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENTS, "webhooks.eventsInvalid"), "webhooks.eventsInvalid"),
  v.minLength(1, "webhooks.eventsInvalid"),
  v.transform((events) => [...new Set(events)]),
);

export const WebhookCreateSchema = v.object({ url: UrlSchema, events: EventsSchema });
/** PATCH: the address or the events, or both. */
export const WebhookUpdateSchema = v.object({ url: v.optional(UrlSchema), events: v.optional(EventsSchema) });

export type Webhook = { id: number; url: string; events: WebhookEvent[]; createdAt: string; disabledAt: string | null };
export type CreatedWebhook = { id: number; url: string; events: WebhookEvent[]; secret: string; createdAt: string };
export type WebhookDelivery = {
  id: number;
  eventType: WebhookEvent;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  createdAt: string;
};

/** The headers a delivery carries, and how its signature is made (Standard Webhooks, v1). */
export async function webhookSignature(secret: string, messageId: string, timestamp: number, body: string): Promise<string> {
  const keyBytes = Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (ch) => ch.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${messageId}.${timestamp}.${body}`));
  return `v1,${btoa(String.fromCharCode(...new Uint8Array(mac)))}`;
}
