/* The e-mails an account wants about its projects (docs/autopilot-and-ai.md "Autopilot": notifications). */
import * as v from "valibot";

export const NOTIFICATION_KINDS = [
  "queueLow", "postFailed", "postRejected", "channelLost",
  // an endpoint that failed for 3 days was switched off (docs/api.md "Webhooks")
  "webhookDisabled",
  // a project's team (docs/teams.md): to editors and owners, a post waits for their review; to
  // its author, the post was approved, returned, or commented on after its return
  "reviewRequested", "reviewApproved", "reviewReturned", "postCommented",
  // an ad's feed time (docs/ads.md "The feed time"): to the project's owners, an ad is due for removal
  // by hand; the bot may not delete an ad's messages (how to grant the right)
  "adRemovalDue", "adCannotDelete",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** The kinds mailed to one member (app_private.notify_member), not to the project's owner. */
export const MEMBER_NOTIFICATION_KINDS = [
  "reviewRequested", "reviewApproved", "reviewReturned", "postCommented", "adRemovalDue", "adCannotDelete",
] as const;

/**
 * The switches of Settings: the kinds of event mail, and the weekly summary (one mail a week
 * per project: docs/autopilot-and-ai.md "Notifications"), off for accounts made before it and on for newer ones.
 */
export const NOTIFICATION_SWITCHES = [...NOTIFICATION_KINDS, "weeklySummary"] as const;
export type NotificationSwitch = (typeof NOTIFICATION_SWITCHES)[number];

/** On or off for each switch; every event kind is on until switched off. */
export type NotificationSettings = Record<NotificationSwitch, boolean>;

const Switch = v.optional(v.boolean("notifications.invalid"));
/** PATCH: the kinds to change; any other key is refused. */
export const NotificationSettingsSchema = v.strictObject({
  queueLow: Switch,
  postFailed: Switch,
  postRejected: Switch,
  channelLost: Switch,
  webhookDisabled: Switch,
  reviewRequested: Switch,
  reviewApproved: Switch,
  reviewReturned: Switch,
  postCommented: Switch,
  adRemovalDue: Switch,
  adCannotDelete: Switch,
  weeklySummary: Switch,
}, "notifications.invalid");
