/* The account's e-mail notification settings (Settings page): each handler is one SQL call. */
import { Hono } from "hono";
import { type NotificationSettings, NotificationSettingsSchema } from "../../contract/notifications.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { body } from "../validate.ts";

export function notificationRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const [{ settings }] = await sql<{ settings: NotificationSettings }[]>`
        select app_public.notification_settings(${currentUser(c).id}) as settings`;
      return c.json(settings);
    })
    .patch("/", body(NotificationSettingsSchema), async (c) => {
      const changes = Object.fromEntries(Object.entries(c.req.valid("json")).filter(([, value]) => value !== undefined));
      const [{ settings }] = await sql<{ settings: NotificationSettings }[]>`
        select app_public.update_notification_settings(${currentUser(c).id}, ${sql.json(changes)}) as settings`;
      return c.json(settings);
    });
}
