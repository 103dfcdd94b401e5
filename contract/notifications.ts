/* The e-mails an account wants about its projects (README "Autopilot": notifications). */
import * as v from "valibot";

export const NOTIFICATION_KINDS = ["queueLow", "postFailed", "postRejected", "channelLost"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** On or off for each kind; every kind is on until switched off. */
export type NotificationSettings = Record<NotificationKind, boolean>;

const Switch = v.optional(v.boolean("notifications.invalid"));
/** PATCH: the kinds to change; any other key is refused. */
export const NotificationSettingsSchema = v.strictObject({
  queueLow: Switch,
  postFailed: Switch,
  postRejected: Switch,
  channelLost: Switch,
}, "notifications.invalid");
