/*
 * Every error the API can answer, by code: its one HTTP status and its English message (the
 * spec's wording where the spec gives one). The API answers `{ message, code }`; the SPA
 * shows the words of web/src/i18n/<language>.json for the code, so a message may be reworded
 * for API clients without losing a translation.
 *
 * Raised in TypeScript as `new ApiError(code)` (core/errors.ts). SQL functions raise with a
 * SQLSTATE of core/errors.ts and name the code in the hint:
 *   raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
 * the SQL's message is answered as it is, so it must read as the code's message here
 * (tests/api/error_codes.test.ts compares them). Valibot schemas (contract/*.ts) name
 * the code as an issue's message, and api/validate.ts answers the code's message.
 *
 * A message's {placeholders} are the names and numbers it carries: filled from `params` (the
 * limits) or by the raiser (`new ApiError("channels.notAChannel", { params: { channel } })`).
 * The answer carries the raiser's as `params` (omitted when there are none; the catalogue's own
 * are the code's), and the SPA fills the same placeholders of its own words from both: it never
 * reads the English message.
 * Some messages are the code itself (`drafts.titleRequired`): the spec shows the key, not
 * English words, and clients have always received it so.
 */
import { ACTIVITY_PAGE_MAX } from "./activity.ts";
import { AD_ADVERTISER_MAX, AD_ERID_MAX, AD_FEED_MINUTES_MAX, AD_TOP_MINUTES_MAX } from "./ads.ts";
import { TOKEN_NAME_MAX } from "./tokens.ts";
import { ADMIN_PAGE_MAX, ADMIN_USER_SEARCH_MAX } from "./admin.ts";
import { BUG_REPORT_DESCRIPTION_MAX, BUG_REPORT_STATUSES } from "./bug_reports.ts";
import { ENTITIES_MAX } from "./entities.ts";
import {
  CONTENT_PLAN_POST_LENGTH,
  CONTENT_PLAN_SLOTS_MAX,
  POSTS_RANGE_MAX_DAYS,
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
  PROJECT_SOURCES_MAX,
  PUBLISHED_PAGE_MAX,
  SERIES_ENDS_AFTER_MAX,
  SERIES_HORIZON_DAYS,
  SERIES_PER_PROJECT_MAX,
  SERIES_SKIPS_MAX,
  SIGN_IN_CODE_LENGTH,
  TIME_YEARS,
  WRITING_STYLE_RANGES,
} from "./limits.ts";
import { INVITE_LINK_NAME_MAX, STATS_RANGE_MAX_DAYS } from "./stats.ts";
import { BUTTON_ROWS_MAX, BUTTON_TEXT_MAX, BUTTONS_PER_ROW_MAX, POST_IMAGES_MAX, UNPIN_AFTER_HOURS_MAX } from "./post_options.ts";

export type ErrorParams = Record<string, string | number>;
type ErrorEntry = { status: number; message: string; params?: ErrorParams };

const { formality, seriousness, emojiUsage } = WRITING_STYLE_RANGES;
const itself = <C extends string>(code: C) => ({ status: 400, message: code }) as const;

export const ERROR_CODES = {
  // ── the request itself ──
  badRequest: { status: 400, message: "Bad request" }, // with Hono's own words when it has some
  "request.malformedJson": { status: 400, message: "Malformed JSON in request body" },
  "request.notJsonObject": { status: 400, message: "The request body must be a JSON object" },
  "request.notMultipart": { status: 400, message: "Expected a multipart/form-data body" },
  "request.malformedAddress": { status: 400, message: "The address is malformed" },
  // any text of a request (contract/text.ts)
  "text.controlCharacter": { status: 400, message: "Text must not contain control characters such as U+0000" },
  // any time or day of a request (contract/time.ts)
  "time.yearOutOfRange": {
    status: 400,
    message: "Times must lie in the years {min} to {max}",
    params: { min: TIME_YEARS.min, max: TIME_YEARS.max },
  },
  tooLarge: { status: 413, message: "The request body is too large" },
  validation: { status: 400, message: "Invalid input" }, // with valibot's own words (a schema without a code)
  notFound: { status: 404, message: "Not found" },
  unauthorized: { status: 401, message: "Please sign in" },
  forbidden: { status: 403, message: "Only administrators can do this" },
  crossSite: { status: 403, message: "Cross-site requests are not allowed" },
  internal: { status: 500, message: "Something went wrong on our side. Please try again." },
  "health.databaseUnreachable": { status: 503, message: "The database is not reachable" },
  "metrics.tokenRequired": { status: 401, message: "GET /metrics needs the header Authorization: Bearer <METRICS_TOKEN>" },
  // a query ran past the API's statement_timeout (API_STATEMENT_TIMEOUT_MS): cancelled, nothing changed
  "server.busy": { status: 503, message: "The server is busy. Please try again in a few seconds." },
  "server.accountBusy": { status: 429, message: "Too many requests of this account at once. Please try again in a few seconds." },
  // PostgreSQL cannot be reached (restarting, failing over): answered at once, nothing changed
  "server.databaseUnavailable": { status: 503, message: "The database is briefly unavailable. Please try again in a few seconds." },

  // ── a SQL refusal without a precise code, and PostgreSQL's own errors (core/errors.ts) ──
  invalid: { status: 400, message: "The input breaks a rule of the product" },
  rateLimited: { status: 429, message: "Too many requests. Please wait and try again." },
  quotaReached: { status: 409, message: "A limit of this account is reached" },
  "data.ruleViolated": { status: 400, message: "The data does not satisfy the product's rules" },
  "data.valueMissing": { status: 400, message: "A required value is missing" },
  "data.wrongFormat": { status: 400, message: "A value has the wrong format" },
  "data.outOfRange": { status: 400, message: "A number is out of range" },
  "data.alreadyExists": { status: 409, message: "This already exists" },
  "data.referenceMissing": { status: 404, message: "A referenced item does not exist" },

  // ── sign-in ──
  "auth.invalidEmail": { status: 400, message: "Invalid email" },
  "auth.codeLength": {
    status: 400,
    message: "String must contain exactly {length} character(s)",
    params: { length: SIGN_IN_CODE_LENGTH },
  },
  "auth.invalidCode": { status: 400, message: "Invalid or expired code" },
  "auth.notSignedIn": { status: 401, message: "Not signed in" },
  "auth.languageInvalid": { status: 400, message: "language must be ru or en" },
  "auth.tooManyCodes": { status: 429, message: "Too many codes requested for this e-mail. Please wait 10 minutes and try again." },
  "auth.tooManyAttempts": {
    status: 429,
    message: "Too many sign-in attempts from this network. Please wait a few minutes and try again.",
  },

  // ── teams (docs/teams.md) ──
  "idempotency.keyInvalid": { status: 400, message: "Idempotency-Key must be 1 to 255 characters" },
  "idempotency.mismatch": { status: 422, message: "This Idempotency-Key was used with another request" },
  "precondition.failed": { status: 412, message: "The object changed since you read it: read it again" },
  "webhooks.urlInvalid": { status: 400, message: "url must be an https:// address of at most 2000 characters" },
  "webhooks.eventsInvalid": { status: 400, message: "events must name at least one event Pressa sends" },
  "webhooks.targetRefused": { status: 400, message: "Webhooks go only to public https:// addresses" },
  "webhooks.notFound": { status: 404, message: "Webhook not found" },
  "comments.notFound": { status: 404, message: "Comment not found" },
  "webhooks.deliveryNotFound": { status: 404, message: "Delivery not found" },
  "webhooks.quotaReached": { status: 409, message: "A project can have at most {max} webhooks" },
  "tokens.invalid": { status: 401, message: "The API token is unknown or revoked" },
  "tokens.scope": { status: 403, message: "This API token does not allow this" },
  "tokens.sessionOnly": { status: 403, message: "API tokens are managed with a signed-in session only" },
  "tokens.notFound": { status: 404, message: "Token not found" },
  "tokens.quotaReached": { status: 409, message: "An account can have at most {max} API tokens. Revoke one you no longer use." },
  "tokens.rateLimited": { status: 429, message: "Too many requests with this token. Please wait a minute." },
  "tokens.nameRequired": { status: 400, message: "Name the token" },
  "tokens.nameTooLong": { status: 400, message: "A token's name is at most {max} characters", params: { max: TOKEN_NAME_MAX } },
  "tokens.projectInvalid": { status: 400, message: "projectId must be a project id or null" },
  "tokens.scopesInvalid": { status: 400, message: "scopes must be [\"read\"] or [\"read\", \"write\"]" },
  "account.ownsSharedProject": { status: 409, message: "You are the last owner of «{project}»: make another member its owner first" },
  "team.forbidden": { status: 403, message: "Your role in this project does not allow this" },
  "team.lastOwner": { status: 409, message: "A project keeps at least one owner" },
  "team.invitationGone": { status: 410, message: "This invitation was used, withdrawn or has expired" },
  "team.invitationForAnotherEmail": { status: 403, message: "This invitation was sent to another e-mail address" },
  "team.invitationNotFound": { status: 404, message: "Invitation not found" },
  "team.memberNotFound": { status: 404, message: "Member not found" },
  "team.alreadyMember": { status: 400, message: "{email} is already a member of this project" },
  "team.membersLimit": { status: 409, message: "A project can have at most {max} members, invitations included" },
  "team.tooManyInvitations": { status: 429, message: "An account can send at most {max} invitations a day. Please try again later." },
  "team.addressBusy": { status: 429, message: "Too many mails to this address. Please wait 10 minutes and try again." },
  "team.roleInvalid": { status: 400, message: "Role must be owner, editor, author or viewer" },
  "team.emailInvalid": { status: 400, message: "Enter the e-mail address to invite" },
  "review.notWaiting": { status: 409, message: "This post is not waiting for review" },
  "review.decisionInvalid": { status: 400, message: "Decision must be approve or return" },
  "comments.textInvalid": { status: 400, message: "A comment is 1 to 2000 characters" },

  "activity.queryInvalid": {
    status: 400,
    message: "before and actor must be ids, limit between 1 and {max}, action one of the log's actions",
    params: { max: ACTIVITY_PAGE_MAX },
  },

  // ── projects ──
  "projects.notFound": { status: 404, message: "Project not found" },
  "projects.quotaReached": { status: 409, message: "An account can have at most {max} projects. Delete one you no longer need." },
  "projects.approverNotConfirmed": { status: 409, message: "The new admin @{handle} is not confirmed as an administrator of {channel}" },
  "projects.nameRequired": { status: 400, message: "Project name is required" },
  "projects.nameTooLong": { status: 400, message: "Project name must be at most {max} characters", params: { max: PROJECT_NAME_MAX } },
  "projects.adminHandleRequired": { status: 400, message: "Admin's Telegram handle is required" },
  "projects.adminHandleInvalid": { status: 400, message: "Invalid Telegram handle format" },
  "projects.descriptionNotText": { status: 400, message: "Description must be text" },
  "projects.descriptionTooLong": {
    status: 400,
    message: "Description must be at most {max} characters",
    params: { max: PROJECT_DESCRIPTION_MAX },
  },
  "projects.sourcesNotText": { status: 400, message: "Sources must be text" },
  "projects.sourcesTooLong": { status: 400, message: "Sources must be at most {max} characters", params: { max: PROJECT_SOURCES_MAX } },
  "projects.timezoneInvalid": { status: 400, message: "Choose a timezone from the list" },
  "projects.languageInvalid": { status: 400, message: "Language must be ru or en" },
  "projects.writingStyleInvalid": { status: 400, message: "Invalid writing style" },
  "projects.formalityNotNumber": { status: 400, message: "Formality must be a number" },
  "projects.formalityNotWhole": { status: 400, message: "Formality must be a whole number" },
  "projects.formalityOutOfRange": { status: 400, message: "Formality must be between {min} and {max}", params: formality },
  "projects.seriousnessNotNumber": { status: 400, message: "Seriousness must be a number" },
  "projects.seriousnessNotWhole": { status: 400, message: "Seriousness must be a whole number" },
  "projects.seriousnessOutOfRange": { status: 400, message: "Seriousness must be between {min} and {max}", params: seriousness },
  "projects.emojiUsageNotNumber": { status: 400, message: "Emoji usage must be a number" },
  "projects.emojiUsageNotWhole": { status: 400, message: "Emoji usage must be a whole number" },
  "projects.emojiUsageOutOfRange": { status: 400, message: "Emoji usage must be between {min} and {max}", params: emojiUsage },

  // ── channels and Telegram ──
  "channels.platformInvalid": { status: 400, message: "Choose a platform: telegram, vk or dzen" },
  "channels.linkRequired": { status: 400, message: "Channel link is required" },
  "channels.linkInvalid": {
    status: 400,
    message: "Enter the channel's public link: @channel, channel, t.me/channel or https://t.me/channel",
  },
  "channels.platformUnavailable": { status: 400, message: "{platform} is not available yet: only Telegram channels can be connected" },
  "channels.notAChannel": { status: 400, message: "{channel} is not a channel" },
  "channels.notFound": {
    status: 400,
    message: "Channel {channel} was not found in Telegram. Check the link; the channel must be public.",
  },
  "channels.botNotAdmin": {
    status: 400,
    message: 'The bot is not an administrator of {channel}. Add it as an administrator with the "Post messages" permission.',
  },
  "channels.missingPostPermission": {
    status: 400,
    message: 'The bot is an administrator of {channel} but lacks the "Post messages" permission. ' +
      "Turn it on in the channel's administrator settings.",
  },
  "channels.approverNotAdmin": {
    status: 403,
    message: "@{handle} is not an administrator of {channel} who may post messages. " +
      `The project's admin must be the channel's creator or an administrator with the "Post messages" permission.`,
  },
  "channels.adminNotRegistered": {
    status: 400,
    message: "The admin @{handle} has not messaged the bot yet: the admin must message the bot first",
  },
  "channels.limitReached": { status: 409, message: "Channel limit reached: a project has one channel" },
  "channels.alreadyConnected": {
    status: 409,
    message: "{channel} is already connected in another project or account. It must be disconnected there first.",
  },
  "channels.noSuchChannel": { status: 404, message: "Channel not found" },
  "channels.requestPending": {
    status: 409,
    message: "A request to @{handle} from this account is already waiting for an answer in Telegram",
  },
  "channels.approverRefused": { status: 403, message: "@{handle} has refused requests from this account" },
  // ── channel statistics and invite links ──
  "stats.rangeNotIso": { status: 400, message: "from and to must be ISO timestamps, e.g. 2026-11-01T00:00:00Z" },
  "stats.rangeReversed": { status: 400, message: "from must be before to" },
  "stats.rangeTooLong": { status: 400, message: "A range may span at most {days} days", params: { days: STATS_RANGE_MAX_DAYS } },
  "stats.botCannotInvite": {
    status: 400,
    message: 'The bot may not create invite links in {channel}. In the channel\'s administrators, give the bot the "Invite users via link" permission.',
  },
  "inviteLinks.nameRequired": { status: 400, message: "Give the invite link a name" },
  "inviteLinks.nameTooLong": { status: 400, message: "An invite link's name is at most {max} characters", params: { max: INVITE_LINK_NAME_MAX } },
  "inviteLinks.noChannel": { status: 400, message: "Connect a channel before creating invite links" },
  "inviteLinks.quotaReached": { status: 409, message: "A project can have at most {max} invite links" },
  "inviteLinks.notFound": { status: 404, message: "Invite link not found" },
  "telegram.notConfigured": {
    status: 503,
    message: "The Telegram bot is not configured on this server (TELEGRAM_BOT_TOKEN is not set)",
  },
  "telegram.unauthorized": { status: 503, message: "Telegram refused the bot's token: check TELEGRAM_BOT_TOKEN" },
  "telegram.unreachable": { status: 503, message: "Telegram is not reachable right now ({description}). Please try again." },
  // only Telegram knows the secret it was given with setWebhook (TELEGRAM_WEBHOOK_SECRET)
  "telegram.webhookSecretWrong": { status: 401, message: "This is not Telegram: the webhook's secret token is missing or wrong" },

  // ── a post's format (contract/entities.ts, post_options.ts) ──
  "entities.invalid": { status: 400, message: "The formatting is not a list of Telegram entities" },
  "entities.unknownType": { status: 400, message: "A formatting kind Telegram posts here do not use" },
  "entities.tooMany": { status: 400, message: "At most {max} formatted pieces per post", params: { max: ENTITIES_MAX } },
  "entities.withoutContent": { status: 400, message: "Formatting comes with the text it formats: send content with entities" },
  "entities.outOfRange": { status: 400, message: "Formatting reaches past the end of the text" },
  "entities.splitsCharacter": { status: 400, message: "Formatting starts or ends inside a character (an emoji)" },
  "entities.badLink": { status: 400, message: "Links may go only to https:// or tg:// addresses" },
  "entities.unexpectedLanguage": { status: 400, message: "Only a code block names a language" },
  "entities.overlap": { status: 400, message: "Formatted pieces overlap without one containing the other" },
  "entities.badNesting": { status: 400, message: "This formatting cannot be nested so in Telegram" },
  "posts.optionsInvalid": { status: 400, message: "The post's options are not valid" },
  "posts.buttonTextInvalid": { status: 400, message: "A button needs a label of 1 to {max} characters", params: { max: BUTTON_TEXT_MAX } },
  "posts.buttonUrlInvalid": { status: 400, message: "A button links to an https:// or tg:// address" },
  "posts.unsafeLink": {
    status: 400,
    message: "A tg:// link may only open a chat, channel, post, folder, boost page or the share sheet (tg://resolve, join, addlist, privatepost, boost, msg_url); sign-in, proxy, passport and other Telegram actions are refused",
  },
  "posts.buttonsInvalid": { status: 400, message: "Buttons: up to {rows} rows of up to {perRow}", params: { rows: BUTTON_ROWS_MAX, perRow: BUTTONS_PER_ROW_MAX } },
  "posts.unpinAfterInvalid": { status: 400, message: "Unpin after 1 to {max} hours", params: { max: UNPIN_AFTER_HOURS_MAX } },
  "drafts.tooManyImages": { status: 400, message: "At most {max} images per post", params: { max: POST_IMAGES_MAX } },
  "posts.editEmpty": { status: 400, message: "The edited post needs its text" },
  "posts.editAlbumButtons": { status: 400, message: "An album sent with its text as the caption cannot get buttons" },
  "posts.editTooLong": { status: 400, message: "The edited text is longer than the message it edits allows: {current}/{max}" },
  "posts.unpinWithoutPin": { status: 400, message: "Unpinning needs a pinned post: set pin too" },
  // advertising posts (contract/ads.ts, docs/ads.md)
  "ads.invalid": { status: 400, message: "The ad is not valid: it needs an advertiser, an erid and its minutes on top and in the feed" },
  "ads.advertiserRequired": { status: 400, message: "An ad names its advertiser (1 to {max} characters)", params: { max: AD_ADVERTISER_MAX } },
  "ads.advertiserTooLong": { status: 400, message: "The advertiser's name is at most {max} characters", params: { max: AD_ADVERTISER_MAX } },
  "ads.innInvalid": { status: 400, message: "The advertiser's INN has 10 or 12 digits" },
  "ads.eridInvalid": { status: 400, message: "The erid is 1 to {max} Latin letters and digits", params: { max: AD_ERID_MAX } },
  "ads.topMinutesInvalid": { status: 400, message: "Minutes on top: a whole number from 0 to {max}", params: { max: AD_TOP_MINUTES_MAX } },
  "ads.feedMinutesInvalid": { status: 400, message: "Minutes in the feed: 0 to keep the post, or a whole number up to {max}", params: { max: AD_FEED_MINUTES_MAX } },
  "ads.priceInvalid": { status: 400, message: "The price is an amount of 0 or more with at most two decimals" },
  "ads.currencyInvalid": { status: 400, message: "The price's currency is RUB, USD, EUR or XTR" },
  "ads.labelDoesNotFit": { status: 400, message: "The post with its ad label is {current} characters; Telegram allows {max}" },
  "ads.notInSeries": { status: 400, message: "An advertising post is one post: it cannot repeat" },
  "ads.cannotDelete": {
    status: 409,
    message: "The bot may not delete messages in {channel}, so it cannot remove this ad at the end of its feed time: in Telegram open the channel, Administrators, the bot, and turn on \"Delete messages\"",
  },
  // the top window (sql/functions/ads.sql assert_ad_window_free, docs/ads.md "The top window")
  "ads.topConflict": { status: 409, message: 'Nothing else goes out while an ad is on top: the time meets "{title}"' },
  "ads.pinOverWindow": { status: 409, message: 'A pinned post would stay over an ad on top: "{title}"' },
  "ads.silentAd": { status: 400, message: "An ad goes out with its notification: it cannot be silent" },
  "ads.pinOutlivesFeed": { status: 400, message: "The ad is unpinned after {hours} hours but leaves the feed after {minutes} minutes" },

  // ── the content plan (contract/content_plans.ts) ──
  "contentPlans.notFound": { status: 404, message: "Content plan slot not found" },
  "contentPlans.dayInvalid": { status: 400, message: "Day of week must be 0 (Sunday) to 6 (Saturday)" },
  "contentPlans.timeInvalid": { status: 400, message: "Time must be HH:MM on a 24-hour clock" },
  "contentPlans.timezoneInvalid": { status: 400, message: "Choose a timezone from the list" },
  "contentPlans.postLengthInvalid": { status: 400, message: "Post length must be {min} to {max} characters", params: { min: CONTENT_PLAN_POST_LENGTH.min, max: CONTENT_PLAN_POST_LENGTH.max } },
  "contentPlans.activeInvalid": { status: 400, message: "active must be true or false" },
  "notifications.invalid": {
    status: 400,
    message: "Notification settings are queueLow, postFailed, postRejected and channelLost, each true or false",
  },
  "contentPlans.quotaReached": { status: 409, message: "A content plan holds at most {max} slots a week", params: { max: CONTENT_PLAN_SLOTS_MAX } },

  // ── drafts and uploads ──
  "drafts.notFound": { status: 404, message: "Draft not found" },
  "drafts.titleRequired": itself("drafts.titleRequired"),
  "drafts.titleTooLong": itself("drafts.titleTooLong"),
  "drafts.invalidContent": itself("drafts.invalidContent"),
  "drafts.contentTooLong": itself("drafts.contentTooLong"),
  "drafts.invalidOrder": itself("drafts.invalidOrder"),
  "drafts.invalidImageType": itself("drafts.invalidImageType"),
  "drafts.imageTooBig": { status: 413, message: "drafts.imageTooBig" },
  "drafts.bulkAddFailed": itself("drafts.bulkAddFailed"),
  "drafts.bulkAddMaxLinesError": itself("drafts.bulkAddMaxLinesError"),
  "drafts.reorderFailed": itself("drafts.reorderFailed"),
  "drafts.noSelectedDrafts": itself("drafts.noSelectedDrafts"),
  "drafts.tooManyDraftsSelected": itself("drafts.tooManyDraftsSelected"),
  "drafts.cannotDeleteScheduled": { status: 409, message: "drafts.cannotDeleteScheduled" },
  "drafts.quotaReached": { status: 409, message: "A project can have at most {max} drafts. Delete drafts you no longer need." },
  "drafts.generationRunning": {
    status: 409,
    message: "Content is already being generated for this project; wait for that job to finish",
  },
  "jobs.notFound": { status: 404, message: "Job not found" },
  "uploads.notInProject": { status: 400, message: "The image is not an upload of this project" },
  "uploads.quotaReached": {
    status: 409,
    message: "The images of this account have reached the storage limit. Delete drafts with images you no longer need.",
  },

  // ── posts: scheduling, approval, deleting ──
  "posts.notFound": { status: 404, message: "Post not found" },
  "posts.channelChanged": {
    status: 409,
    message: "This post went out in a channel that is no longer the project's channel: it is read-only history",
  },
  "lists.unknownView": { status: 400, message: "view must be one of: {views}" },
  "posts.rangeNotIso": { status: 400, message: "from and to must both be ISO timestamps, e.g. 2026-11-01T00:00:00Z" },
  "posts.rangeReversed": { status: 400, message: "from must be before to" },
  "posts.rangeTooLong": { status: 400, message: "A range may span at most {days} days", params: { days: POSTS_RANGE_MAX_DAYS } },
  "posts.publishedQueryInvalid": {
    status: 400,
    message: "limit must be between 1 and {max}; before (an ISO time) and beforeId go together",
    params: { max: PUBLISHED_PAGE_MAX },
  },
  "schedule.invalidTime": { status: 400, message: "Please enter a valid time in HH:mm format" },
  "schedule.titleRequired": { status: 400, message: "Title is required for non-recurring posts" },
  "schedule.scheduledForMissing": { status: 400, message: "scheduledFor must be an ISO timestamp" },
  "schedule.scheduledForInvalid": { status: 400, message: "scheduledFor must be an ISO timestamp with a timezone" },
  "schedule.isRecurringInvalid": { status: 400, message: "isRecurring must be true or false" },
  "schedule.writeDraftInvalid": { status: 400, message: "writeDraft must be true or false" },
  "schedule.recurringTypeInvalid": { status: 400, message: "recurringType must be none, daily or weekly" },
  "schedule.inChannelInvalid": {
    status: 400,
    message: "inChannel must be true (it is in the channel) or false (send it again)",
  },
  "schedule.pastTime": { status: 400, message: "Cannot schedule posts in the past. Please select a future time." },
  "schedule.noChannel": { status: 400, message: "Connect a channel before scheduling posts" },
  "schedule.noChannelToPublish": { status: 400, message: "Connect a channel before publishing" },
  "schedule.selectDraft": itself("schedule.selectDraft"),
  "schedule.noDraftsForRecurring": itself("schedule.noDraftsForRecurring"),
  "schedule.draftAlreadyScheduled": itself("schedule.draftAlreadyScheduled"),
  "schedule.cannotChangeRecurrence": {
    status: 400,
    message: "A one-time post cannot become recurring or the other way round; delete it and schedule anew",
  },
  "schedule.seriesNotPublishable": { status: 400, message: "A recurring series is sent for approval one occurrence at a time" },
  "schedule.seriesEndsAfterInvalid": { status: 400, message: "endsAfter must be a whole number of posts from 1 to {max}", params: { max: SERIES_ENDS_AFTER_MAX } },
  "schedule.seriesEndsOnInvalid": { status: 400, message: "endsOn must be a date (YYYY-MM-DD)" },
  "schedule.seriesEndsTwice": { status: 400, message: "A series ends after a number of posts or on a date, not both" },
  "schedule.seriesEndsBeforeStart": { status: 400, message: "A series cannot end before its first post" },
  "schedule.notARunningSeries": { status: 400, message: "Only a running recurring series has occurrences to skip" },
  "schedule.notAnOccurrence": { status: 400, message: "The series has no occurrence still to come at that time" },
  "schedule.skipAtInvalid": { status: 400, message: "at must be an ISO timestamp with a timezone, and skip true or false" },
  "schedule.tooManySkips": { status: 409, message: "A series can have at most {max} skipped dates", params: { max: SERIES_SKIPS_MAX } },
  "schedule.skipBeyondHorizon": { status: 400, message: "Only dates within the next {days} days can be skipped", params: { days: SERIES_HORIZON_DAYS } },
  "schedule.seriesStartsBeyondHorizon": { status: 400, message: "A series must start within the next {days} days", params: { days: SERIES_HORIZON_DAYS } },
  "schedule.tooManySeries": { status: 409, message: "A project can have at most {max} recurring series", params: { max: SERIES_PER_PROJECT_MAX } },
  "schedule.notPlanned": { status: 400, message: "Only a post in status draft can be sent for approval" },
  "schedule.notAwaitingApproval": { status: 409, message: "Only a post awaiting approval can be sent again or moved" },
  "schedule.captionTooLong": { status: 400, message: "schedule.captionTooLong: {current}/{max}" },
  "schedule.cannotEditPublished": { status: 409, message: "cannot edit published" },
  "schedule.cannotEditSending": { status: 409, message: "The post is being published right now and cannot be edited" },
  "schedule.cannotDeleteSending": { status: 409, message: "The post is being published right now; try again in a moment" },
  "schedule.channelUnknown": { status: 409, message: "The post's channel is not known, so its message cannot be deleted" },
  "schedule.channelDeleteFailed": {
    status: 409,
    message: "Telegram refused to delete the message from {channel}: {description}. The post was not deleted. " +
      "Delete the message in Telegram, or delete the post here without removing it from the channel.",
  },
  // Telegram could not be asked (network, 5xx): the same words, and trying again may work.
  "schedule.channelDeleteUnavailable": {
    status: 503,
    message: "Telegram refused to delete the message from {channel}: {description}. The post was not deleted. " +
      "Delete the message in Telegram, or delete the post here without removing it from the channel.",
  },

  // ── AI ──
  "ai.notConfigured": {
    status: 503,
    message: "AI is not configured on this server: set OPENAI_API_KEY (and OPENAI_BASE_URL / OPENAI_MODEL for another " +
      "OpenAI-compatible server such as Ollama or vLLM), then restart.",
  },
  "ai.rateLimited": { status: 429, message: "Too many AI requests from this account. Please wait a minute and try again." },
  "ai.dailyBudgetSpent": { status: 429, message: "The daily AI budget of this account is spent. It renews at midnight UTC." },
  "ai.globalDailyLimit": {
    status: 429,
    message: "The AI has reached this service's daily limit for all accounts. It renews at midnight UTC.",
  },
  "ai.aborted": { status: 499, message: "The request was cancelled." },
  "ai.timeout": { status: 504, message: "The AI took too long to answer. Please try again." },
  "ai.unreachable": { status: 502, message: "The AI server cannot be reached right now. Please try again later." },
  "ai.unauthorized": { status: 503, message: "The AI server refused our API key: check OPENAI_API_KEY." },
  "ai.modelNotFound": { status: 503, message: "The AI server does not know the model set in OPENAI_MODEL." },
  "ai.providerBusy": { status: 503, message: "The AI provider is busy (rate limit reached). Please try again in a minute." },
  "ai.unavailable": { status: 502, message: "The AI provider had an error. Please try again." },
  "ai.badRequest": { status: 502, message: "The AI provider refused the request. Please try again." },
  "ai.failed": { status: 502, message: "The AI request failed. Please try again." },
  "ai.emptyAnswer": { status: 502, message: "The AI returned an empty answer. Please try again." },
  "ai.noTitle": { status: 502, message: "The AI returned no title. Please try again." },
  "ai.tooFewTitles": { status: 502, message: "The AI suggested too few titles. Please try again." },
  "ai.postLengthInvalid": { status: 400, message: "postLength must be a number" },
  "ai.titleCountInvalid": { status: 400, message: "count must be a number" },
  "chat.emptyMessage": itself("chat.emptyMessage"),
  "chat.messageTooLong": itself("chat.messageTooLong"),
  "chat.modeInvalid": { status: 400, message: "mode must be general, editor, title or improver" },
  "chat.historyQueryInvalid": { status: 400, message: "page must be ≥ 1 and limit between 1 and 50" },

  // ── bug reports and administration ──
  "bugReports.descriptionRequired": { status: 400, message: "Please describe the issue" },
  "bugReports.descriptionTooLong": {
    status: 400,
    message: "The description must be at most {max} characters",
    params: { max: BUG_REPORT_DESCRIPTION_MAX },
  },
  "bugReports.quotaReached": { status: 429, message: "An account can send at most {max} bug reports a day. Please try again later." },
  "bugReports.notFound": { status: 404, message: "Bug report not found" },
  "bugReports.statusInvalid": {
    status: 400,
    message: "Status must be one of {statuses}",
    params: { statuses: BUG_REPORT_STATUSES.join(", ") },
  },
  "admin.usersQueryInvalid": {
    status: 400,
    message: "limit must be between 1 and {max}; after is a user id; q is at most {searchMax} characters",
    params: { max: ADMIN_PAGE_MAX, searchMax: ADMIN_USER_SEARCH_MAX },
  },
  "admin.bugReportsQueryInvalid": {
    status: 400,
    message: "limit must be between 1 and {max}; before (an ISO time) and beforeId go together",
    params: { max: ADMIN_PAGE_MAX },
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERROR_CODES, code);
}

/** The numbers the catalogue fills in itself (the limits a message names). */
export function errorParams(code: ErrorCode): ErrorParams {
  return (ERROR_CODES[code] as ErrorEntry).params ?? {};
}

/** The code's message with its placeholders filled: the catalogue's own params, then `params`. */
export function errorMessage(code: ErrorCode, params: ErrorParams = {}): string {
  const values = { ...errorParams(code), ...params };
  return ERROR_CODES[code].message.replace(/\{(\w+)\}/g, (placeholder, name: string) => name in values ? String(values[name]) : placeholder);
}

/** The body of every answer that is not OK: the code is the contract, the message its English words. */
export type ErrorBody = { message: string; code: string; params?: ErrorParams };
