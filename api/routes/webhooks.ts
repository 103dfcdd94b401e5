/*
 * A project's webhooks (docs/api.md "Webhooks"): endpoints, their delivery log and redelivery,
 * for owners and editors (webhooks.manage, checked in SQL). Each handler is one SQL call; the
 * target is checked to be a public https:// address first (and again at each send).
 */
import { Hono } from "hono";
import { type CreatedWebhook, type Webhook, WebhookCreateSchema, type WebhookDelivery, WebhookUpdateSchema } from "../../contract/webhooks.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { body, idParam } from "../validate.ts";
import { ApiError } from "../../core/errors.ts";
import { refuseTarget } from "../../core/public_address.ts";
import { dbOf, idempotent } from "../middleware/idempotency.ts";

/** A Standard Webhooks secret: whsec_ and the base64 of 32 random bytes. */
function webhookSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
}

export function webhookRoutes({ sql, config }: ApiDeps) {
  const ids = (c: { req: { param(name: string): string | undefined } }) => ({
    projectId: idParam(c.req.param("projectId")),
    webhookId: idParam(c.req.param("webhookId")),
  });
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const rows = await sql<Webhook[]>`select * from app_public.project_webhooks(${currentUser(c).id}, ${idParam(c.req.param("projectId"))})`;
      return c.json(rows);
    })
    .post("/", idempotent(sql), body(WebhookCreateSchema), async (c) => {
      const { url, events } = c.req.valid("json");
      const projectId = idParam(c.req.param("projectId"));
      // the role first: a refused role learns nothing about addresses
      await sql`select app_public.assert_webhooks_manager(${currentUser(c).id}, ${projectId})`;
      if (await refuseTarget(url, config.webhooksAllowPrivate)) throw new ApiError("webhooks.targetRefused");
      const secret = webhookSecret();
      const [row] = await dbOf(c, sql)<Omit<CreatedWebhook, "secret">[]>`
        select * from app_public.create_webhook(${currentUser(c).id}, ${projectId}, ${url}, ${events}::text[], ${secret},
          ${config.limits.webhooksPerProject})`;
      // the one time the secret is shown
      return c.json({ id: row.id, url: row.url, events: row.events, secret, createdAt: row.createdAt } satisfies CreatedWebhook, 201);
    })
    .patch("/:webhookId", body(WebhookUpdateSchema), async (c) => {
      const { projectId, webhookId } = ids(c);
      const { url, events } = c.req.valid("json");
      // the role first, then a new address is checked as a new endpoint's is
      await sql`select app_public.assert_webhooks_manager(${currentUser(c).id}, ${projectId})`;
      if (url !== undefined && await refuseTarget(url, config.webhooksAllowPrivate)) throw new ApiError("webhooks.targetRefused");
      const [row] = await sql<Webhook[]>`
        select * from app_public.update_webhook(${currentUser(c).id}, ${projectId}, ${webhookId}, ${url ?? null}, ${events ?? null}::text[])`;
      return c.json(row);
    })
    .delete("/:webhookId", async (c) => {
      const { projectId, webhookId } = ids(c);
      await sql`select app_public.delete_webhook(${currentUser(c).id}, ${projectId}, ${webhookId})`;
      return c.json({ ok: true });
    })
    .get("/:webhookId/deliveries", async (c) => {
      const { projectId, webhookId } = ids(c);
      const rows = await sql<WebhookDelivery[]>`
        select * from app_public.webhook_delivery_log(${currentUser(c).id}, ${projectId}, ${webhookId}, 100)`;
      return c.json(rows);
    })
    .post("/:webhookId/deliveries/:deliveryId/redeliver", async (c) => {
      const { projectId, webhookId } = ids(c);
      const [row] = await sql<WebhookDelivery[]>`
        select * from app_public.redeliver_webhook(${currentUser(c).id}, ${projectId}, ${webhookId}, ${idParam(c.req.param("deliveryId"))})`;
      return c.json(row);
    });
}

