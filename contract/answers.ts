/*
 * What every public route answers, as valibot schemas written from the answer types of this
 * folder (and what their SQL selects), for the OpenAPI document (api/openapi.ts) and the test
 * that reads real answers against it (tests/api/openapi.test.ts). Objects are strict: a field
 * an answer gains or loses, or a type it changes, fails that test until it is described here.
 * The compile-time checks at the end hold each schema to its TypeScript type.
 */
import * as v from "valibot";
import { ROLES } from "./team.ts";
import { ACTIVITY_ACTIONS, type ActivityPage } from "./activity.ts";
import { AD_CURRENCIES, AdFields, type AdReport, type AdState } from "./ads.ts";
import { ENTITY_TYPES, type MessageEntity } from "./entities.ts";
import { PostOptionsSchema } from "./post_options.ts";
import { POST_STATUSES, RECURRING_TYPES, type CalendarPostRow, type Post } from "./posts.ts";
import { POST_REASON_CODES } from "./post_reasons.ts";
import type { Draft, DraftMoved, DraftSummary } from "./drafts.ts";
import type { Project } from "./projects.ts";
import type { Channel } from "./channels.ts";
import { PLATFORMS } from "./limits.ts";
import type { ContentPlan, QueueHealth, SuggestedTimes } from "./content_plans.ts";
import type { ChannelStats, InviteLink, ProjectOverview } from "./stats.ts";
import type { PostComment } from "./review.ts";
import type { Invitation, InvitationAccepted, Member, Members } from "./team.ts";
import { WEBHOOK_EVENTS, type CreatedWebhook, type Webhook, type WebhookDelivery } from "./webhooks.ts";
import { NOTIFICATION_SWITCHES, type NotificationSettings } from "./notifications.ts";
import type { ApiToken, CreatedToken } from "./tokens.ts";
import type { SessionUser } from "./auth.ts";
import type { ChatMessage, GenerationJob } from "./ai.ts";
import { ERROR_CODES } from "./error_codes.ts";
import { type AdminStats, type AdminUserRow, BUG_REPORT_STATUSES, type BugReport } from "./bug_reports.ts";

const Id = v.pipe(v.number(), v.integer(), v.minValue(1));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Instant = v.pipe(v.string(), v.isoTimestamp());
const Day = v.pipe(v.string(), v.isoDate());
const Role = v.picklist(ROLES);
const Language = v.picklist(["ru", "en"]);

export const OkAnswer = v.strictObject({ ok: v.literal(true) });

export const HealthAnswer = v.strictObject({
  ok: v.literal(true), database: v.literal("ok"), worker: v.picklist(["ok", "down"]), bot: v.picklist(["ok", "down", "disabled"]),
});

// ---- the account

export const SessionUserAnswer = v.strictObject({ id: Id, email: v.string(), isAdmin: v.boolean() });
export const CodeRequestedAnswer = v.strictObject({ codeAlreadySent: v.boolean() });

export const NotificationSettingsAnswer = v.strictObject(
  Object.fromEntries(NOTIFICATION_SWITCHES.map((name) => [name, v.boolean()])) as Record<(typeof NOTIFICATION_SWITCHES)[number], v.BooleanSchema<undefined>>,
);

const Scopes = v.array(v.picklist(["read", "write"]));
export const TokenAnswer = v.strictObject({
  id: Id, name: v.string(), projectId: v.nullable(Id), scopes: Scopes, createdAt: Instant, lastUsedAt: v.nullable(Instant),
});
export const CreatedTokenAnswer = v.strictObject({ id: Id, name: v.string(), projectId: v.nullable(Id), scopes: Scopes, createdAt: Instant, token: v.string() });

// ---- projects

export const ProjectAnswer = v.strictObject({
  id: Id, userId: Id, role: Role, name: v.string(), description: v.string(),
  writingStyle: v.strictObject({ formality: v.number(), seriousness: v.number(), emojiUsage: v.number() }),
  adminHandle: v.string(), timezone: v.string(), language: Language, sources: v.string(), createdAt: Instant, updatedAt: Instant,
});

const AdPriceAnswer = v.strictObject({ amount: v.number(), currency: v.picklist(AD_CURRENCIES) });

export const ProjectOverviewAnswer = v.strictObject({
  projectId: Id, channelConnected: v.boolean(), channelAwaitingHandle: v.nullable(v.string()), subscribers: v.nullable(Count),
  subscribersChange7d: v.nullable(v.pipe(v.number(), v.integer())), nextPostAt: v.nullable(Instant), nextPostTitle: v.nullable(v.string()),
  nextPostRecurring: v.nullable(v.boolean()), awaitingApproval: Count, lateApproval: Count, lateSince: v.nullable(Instant), failed: Count,
  uncertain: Count, adIncome: v.array(AdPriceAnswer), inReview: Count,
});

// ---- drafts and posts

const EntityAnswer = v.strictObject({
  type: v.picklist(ENTITY_TYPES), offset: Count, length: Count, url: v.optional(v.string()), language: v.optional(v.string()),
});
const Entities = v.array(EntityAnswer);
/** A draft's ad as stored; a post's with when the bot removed it (PostAd, app_private.post_ad). */
const DraftAdAnswer = v.nullable(v.strictObject(AdFields));
const PostAdAnswer = v.nullable(v.strictObject({ ...AdFields, removedAt: v.nullable(Instant) }));

const DraftHolderAnswer = {
  scheduledPostId: v.nullable(Id), heldBySeriesId: v.nullable(Id), heldByPlanId: v.nullable(Id), nextForSeriesId: v.nullable(Id),
};
const draftFields = {
  id: Id, projectId: Id, title: v.string(), content: v.string(), entities: Entities, imageUrl: v.nullable(v.string()),
  imageUrls: v.array(v.string()), options: PostOptionsSchema, ad: DraftAdAnswer, order: v.number(), status: v.literal("draft"), createdAt: Instant,
};
/** A draft as a write answers it. */
export const DraftAnswer = v.strictObject(draftFields);
/** A draft as the list and one draft's read answer it: with what holds it. */
export const HeldDraftAnswer = v.strictObject({ ...draftFields, ...DraftHolderAnswer });
/** A draft as the drafts list's lean view answers it (`?view=list`). */
export const DraftSummaryAnswer = v.strictObject({
  id: Id, projectId: Id, title: v.string(), excerpt: v.string(), imageUrl: v.nullable(v.string()), imageCount: Count, order: v.number(),
  status: v.literal("draft"), createdAt: Instant, ...DraftHolderAnswer,
});
export const DraftMovedAnswer = v.strictObject({
  id: Id, order: v.number(), respaced: v.array(v.strictObject({ id: Id, order: v.number() })),
});

const AdStateAnswer = v.strictObject({
  topFrom: Instant, topUntil: Instant, removeAt: v.nullable(Instant), removedAt: v.nullable(Instant), removalRemindedAt: v.nullable(Instant),
});
const ReasonCode = v.nullable(v.picklist(Object.keys(POST_REASON_CODES) as (keyof typeof POST_REASON_CODES)[]));
const ReasonParams = v.record(v.string(), v.union([v.string(), v.number()]));
const seriesFields = {
  endsAfter: v.nullable(Count), endsOn: v.nullable(Day), occurrencesMade: Count, skippedOccurrences: v.array(Instant),
};
const Button = v.strictObject({ text: v.string(), url: v.string() });

export const PostAnswer = v.strictObject({
  id: Id, projectId: Id, draftId: v.nullable(Id), seriesId: v.nullable(Id), title: v.string(), content: v.string(), entities: Entities,
  imageUrl: v.nullable(v.string()), imageUrls: v.array(v.string()), options: PostOptionsSchema, ad: PostAdAnswer, adState: v.nullable(AdStateAnswer),
  status: v.picklist(POST_STATUSES), createdAt: Instant, scheduledFor: Instant, isRecurring: v.boolean(), recurringType: v.picklist(RECURRING_TYPES),
  recurringLastPost: v.nullable(Instant), approvalMessageIds: v.record(v.string(), v.unknown()), publishedLinks: v.record(v.string(), v.string()),
  publishedAt: v.nullable(Instant), lastErrorCode: ReasonCode, lastErrorParams: ReasonParams, editedAt: v.nullable(Instant),
  pendingEdit: v.nullable(v.strictObject({ content: v.string(), entities: Entities, buttons: v.array(v.array(Button)), requestedAt: Instant })),
  channelChanged: v.boolean(), planId: v.nullable(Id), awaitingText: v.boolean(), ...seriesFields, createdBy: v.nullable(Id),
  reviewAuthorId: v.nullable(Id), reviewAuthorEmail: v.nullable(v.string()), reviewPublish: v.boolean(), returnedAt: v.nullable(Instant),
});

/** A post as the calendar's lean view answers it (`?view=calendar`). */
export const CalendarPostAnswer = v.strictObject({
  id: Id, draftId: v.nullable(Id), seriesId: v.nullable(Id), title: v.string(), status: v.picklist(POST_STATUSES), scheduledFor: Instant,
  isRecurring: v.boolean(), recurringType: v.picklist(RECURRING_TYPES), recurringLastPost: v.nullable(Instant), lastErrorCode: ReasonCode,
  lastErrorParams: ReasonParams, planId: v.nullable(Id), awaitingText: v.boolean(), ...seriesFields, adState: v.nullable(AdStateAnswer),
  hasImage: v.boolean(),
});

export const PostDeletedAnswer = v.strictObject({ ok: v.literal(true), deleted: v.array(Id) });

export const CommentAnswer = v.strictObject({
  id: Id, author: v.strictObject({ userId: v.nullable(Id), email: v.nullable(v.string()) }), text: v.string(), createdAt: Instant,
});

// ---- channels, plans, statistics

export const ChannelAnswer = v.strictObject({
  id: Id, projectId: Id, type: v.picklist(PLATFORMS), link: v.string(), status: v.picklist(["pending", "connected"]),
  config: v.strictObject({ chatId: v.optional(v.number()), adminChatId: v.optional(v.number()), lastPostTime: v.optional(v.number()) }),
  approver: v.nullable(v.strictObject({ handle: v.string(), name: v.nullable(v.string()) })),
  awaiting: v.nullable(v.strictObject({ handle: v.string(), until: Instant })),
  createdAt: Instant,
});
export const BotAnswer = v.strictObject({ username: v.string(), link: v.string() });

export const ContentPlanAnswer = v.strictObject({
  id: Id, projectId: Id, dayOfWeek: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(6)), time: v.string(), timezone: v.string(),
  postLength: v.number(), active: v.boolean(), createdAt: Instant,
});
export const QueueHealthAnswer = v.strictObject({ draftsLeft: Count, runsDryAt: v.nullable(Instant), low: v.boolean(), postsPerWeek: v.number() });
export const SuggestedTimesAnswer = v.variant("ready", [
  v.strictObject({
    ready: v.literal(true),
    times: v.array(v.strictObject({ weekday: v.number(), hour: v.number(), avgReactions: v.number(), posts: Count, inPlan: v.boolean() })),
  }),
  v.strictObject({ ready: v.literal(false), postsNeeded: Count, timesNeeded: Count }),
]);

export const ChannelStatsAnswer = v.strictObject({
  subscribers: v.strictObject({ current: v.nullable(Count), points: v.array(v.strictObject({ at: Instant, count: Count })) }),
  days: v.array(v.strictObject({ day: Day, joins: Count, leaves: Count })),
  posts: v.array(v.strictObject({
    postId: Id, title: v.string(), publishedAt: Instant, url: v.nullable(v.string()),
    reactions: v.strictObject({ total: Count, byEmoji: v.record(v.string(), Count) }),
  })),
  bestTimes: v.array(v.strictObject({ weekday: v.number(), hour: v.number(), posts: Count, avgReactions: v.number() })),
});
export const InviteLinkAnswer = v.strictObject({
  id: Id, name: v.string(), url: v.string(), joins: Count, leaves: Count, createdAt: Instant, revoked: v.boolean(),
});

/** The ad report (AdReport in contract/ads.ts). */
export const AdReportAnswer = v.strictObject({
  items: v.array(v.strictObject({
    postId: Id, title: v.string(), advertiser: v.string(), erid: v.string(), scheduledFor: Instant, publishedAt: v.nullable(Instant),
    topUntil: Instant, removeAt: v.nullable(Instant), removedAt: v.nullable(Instant), price: v.nullable(AdPriceAnswer), reactions: Count,
  })),
  totals: v.array(AdPriceAnswer),
});

// ---- the team

const MemberAnswerFields = { userId: Id, email: v.string(), role: Role, joinedAt: Instant };
export const MemberAnswer = v.strictObject(MemberAnswerFields);
const OpenInvitation = v.strictObject({ id: Id, email: v.string(), role: Role, createdAt: Instant, expiresAt: Instant });
export const MembersAnswer = v.strictObject({ members: v.array(MemberAnswer), invitations: v.array(OpenInvitation) });
export const InvitationAnswer = v.strictObject({ id: Id, email: v.string(), role: Role, expiresAt: Instant });
export const InvitationAcceptedAnswer = v.strictObject({ projectId: Id, role: Role });

export const ActivityAnswer = v.strictObject({
  items: v.array(v.strictObject({
    id: Id, at: Instant,
    actor: v.variant("type", [
      v.strictObject({ type: v.literal("user"), userId: v.nullable(Id), email: v.nullable(v.string()) }),
      v.strictObject({ type: v.literal("telegram"), userId: v.number(), handle: v.nullable(v.string()) }),
      v.strictObject({ type: v.literal("system") }),
    ]),
    action: v.picklist(ACTIVITY_ACTIONS), target: v.strictObject({ type: v.string(), id: v.nullable(Id) }),
    details: v.record(v.string(), v.unknown()),
  })),
  next: v.nullable(Id),
});

// ---- webhooks

const Events = v.array(v.picklist(WEBHOOK_EVENTS));
export const WebhookAnswer = v.strictObject({ id: Id, url: v.string(), events: Events, createdAt: Instant, disabledAt: v.nullable(Instant) });
export const CreatedWebhookAnswer = v.strictObject({ id: Id, url: v.string(), events: Events, secret: v.pipe(v.string(), v.startsWith("whsec_")), createdAt: Instant });
export const WebhookDeliveryAnswer = v.strictObject({
  id: Id, eventType: v.picklist(WEBHOOK_EVENTS), status: v.picklist(["pending", "delivered", "failed"]), attempts: Count,
  lastStatus: v.nullable(v.pipe(v.number(), v.integer())), createdAt: Instant,
});

// ---- AI

const ErrorCode = v.picklist(Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]);
export const TitleAnswer = v.strictObject({ title: v.string() });
export const TitlesAnswer = v.strictObject({ titles: v.array(v.string()) });
export const GeneratedPostAnswer = v.strictObject({ content: v.string(), entities: Entities });
export const GenerationJobAnswer = v.strictObject({
  jobId: Id, status: v.picklist(["pending", "processing", "completed", "failed"]),
  result: v.strictObject({
    progress: v.strictObject({ completed: Count, total: Count }),
    failed: v.optional(v.array(v.strictObject({ draftId: Id, error: v.string(), code: ErrorCode }))),
  }),
  error: v.nullable(v.string()), errorCode: v.nullable(ErrorCode),
});
const ChatMessageAnswer = v.strictObject({ id: Id, role: v.picklist(["user", "assistant"]), content: v.string(), timestamp: Instant });
export const ChatHistoryAnswer = v.strictObject({ messages: v.array(ChatMessageAnswer), hasMore: v.boolean(), nextPage: v.nullable(Id) });
export const ChatReplyAnswer = v.strictObject({ id: Id, message: v.string(), timestamp: Instant, questionId: Id });

// ---- uploads, bug reports, the admin dashboard

export const UploadedImageAnswer = v.strictObject({ imageUrl: v.string(), width: Count, height: Count });
export const BugReportCreatedAnswer = v.strictObject({ id: Id, status: v.picklist(BUG_REPORT_STATUSES) });
const bugReportFields = {
  id: Id, userId: v.nullable(Id), description: v.string(), screenshotUrl: v.nullable(v.string()), pageUrl: v.nullable(v.string()),
  userAgent: v.nullable(v.string()), status: v.picklist(BUG_REPORT_STATUSES), createdAt: Instant, updatedAt: Instant,
};
/** A report as the admin's list shows it, with its reporter. */
export const BugReportAnswer = v.strictObject({ ...bugReportFields, user: v.nullable(v.strictObject({ email: v.string() })) });
/** A report as a status change answers it: the stored row (its screenshot's storage key too), without its reporter. */
export const BugReportRowAnswer = v.strictObject({ ...bugReportFields, screenshotKey: v.nullable(v.string()) });
export const AdminStatsAnswer = v.strictObject({
  userCount: Count, postCount: Count, scheduledTodayCount: Count, bugReportCount: Count, newBugReportCount: Count,
});
export const AdminUserAnswer = v.strictObject({
  id: Id, email: v.string(), isAdmin: v.boolean(), projectCount: Count, channelCount: Count, postCount: Count, draftCount: Count,
});

/*
 * Each schema is its type, both ways: a field the type gains, loses or retypes fails the
 * type check here (deno check), before any answer is read against the document.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Out<S extends v.GenericSchema> = v.InferOutput<S>;
function same<_ extends true>() {}
same<Same<Out<typeof SessionUserAnswer>, SessionUser>>();
same<Same<Out<typeof NotificationSettingsAnswer>, NotificationSettings>>();
same<Same<Out<typeof TokenAnswer>, ApiToken>>();
same<Same<Out<typeof CreatedTokenAnswer>, CreatedToken>>();
same<Same<Omit<Out<typeof ProjectAnswer>, "language">, Omit<Project, "language">>>();
same<Same<Out<typeof ProjectOverviewAnswer>, ProjectOverview>>();
same<Same<Out<typeof HeldDraftAnswer>, Required<Draft>>>();
same<Same<Out<typeof DraftSummaryAnswer>, DraftSummary>>();
same<Same<Out<typeof DraftMovedAnswer>, DraftMoved>>();
same<Same<Out<typeof PostAnswer>, Post>>();
same<Same<Out<typeof CalendarPostAnswer>, CalendarPostRow>>();
same<Same<Out<typeof CommentAnswer>, PostComment>>();
same<Same<Out<typeof ChannelAnswer>, Channel>>();
same<Same<Out<typeof ContentPlanAnswer>, ContentPlan>>();
same<Same<Out<typeof QueueHealthAnswer>, QueueHealth>>();
same<Same<Out<typeof SuggestedTimesAnswer>, SuggestedTimes>>();
same<Same<Out<typeof ChannelStatsAnswer>, ChannelStats>>();
same<Same<Out<typeof InviteLinkAnswer>, InviteLink>>();
same<Same<Out<typeof AdReportAnswer>, AdReport>>();
same<Same<Out<typeof MemberAnswer>, Member>>();
same<Same<Out<typeof MembersAnswer>, Members>>();
same<Same<Out<typeof InvitationAnswer>, Omit<Invitation, "createdAt">>>();
same<Same<Out<typeof InvitationAcceptedAnswer>, InvitationAccepted>>();
same<Same<Out<typeof ActivityAnswer>, ActivityPage>>();
same<Same<Out<typeof WebhookAnswer>, Webhook>>();
same<Same<Out<typeof CreatedWebhookAnswer>, CreatedWebhook>>();
same<Same<Out<typeof WebhookDeliveryAnswer>, WebhookDelivery>>();
same<Same<Out<typeof GenerationJobAnswer>, GenerationJob>>();
same<Same<Out<typeof ChatMessageAnswer>, ChatMessage>>();
same<Same<Out<typeof BugReportAnswer>, BugReport>>();
same<Same<Out<typeof AdminStatsAnswer>, AdminStats>>();
same<Same<Out<typeof AdminUserAnswer>, AdminUserRow>>();
same<Same<Out<typeof AdStateAnswer>, AdState>>();
same<Same<Out<typeof EntityAnswer>, MessageEntity>>();
