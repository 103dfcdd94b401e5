/*
 * What the main routes answer, as valibot schemas, for the OpenAPI document (api/openapi.ts)
 * and the tests that read answers against it (tests/api/openapi.test.ts). Loose objects: an
 * answer may carry more fields than these, never fewer or of another type.
 */
import * as v from "valibot";
import { ROLES } from "./team.ts";
import { ACTIVITY_ACTIONS } from "./activity.ts";
import { AD_CURRENCIES } from "./ads.ts";

const Id = v.pipe(v.number(), v.integer());
const Instant = v.pipe(v.string(), v.isoTimestamp());

export const OkAnswer = v.object({ ok: v.literal(true) });

export const ProjectAnswer = v.looseObject({
  id: Id, userId: Id, role: v.picklist(ROLES), name: v.string(), description: v.string(), adminHandle: v.string(),
  timezone: v.string(), language: v.picklist(["ru", "en"]), sources: v.string(), createdAt: Instant,
});

export const DraftAnswer = v.looseObject({
  id: Id, projectId: Id, title: v.string(), content: v.string(), entities: v.array(v.looseObject({ type: v.string(), offset: v.number(), length: v.number() })),
  imageUrl: v.nullable(v.string()), imageUrls: v.array(v.string()), options: v.looseObject({}), order: v.number(), status: v.literal("draft"), createdAt: Instant,
});

export const PostAnswer = v.looseObject({
  id: Id, projectId: Id, draftId: v.nullable(Id), title: v.string(), content: v.string(),
  status: v.picklist(["draft", "in_review", "scheduled", "approved", "sending", "published", "rejected", "failed", "uncertain"]),
  scheduledFor: Instant, isRecurring: v.boolean(), publishedAt: v.nullable(Instant), createdAt: Instant,
});

export const MembersAnswer = v.object({
  members: v.array(v.object({ userId: Id, email: v.string(), role: v.picklist(ROLES), joinedAt: Instant })),
  invitations: v.array(v.object({ id: Id, email: v.string(), role: v.picklist(ROLES), createdAt: Instant, expiresAt: Instant })),
});

export const InvitationAnswer = v.object({ id: Id, email: v.string(), role: v.picklist(ROLES), expiresAt: Instant });

export const TokenAnswer = v.object({
  id: Id, name: v.string(), projectId: v.nullable(Id), scopes: v.array(v.picklist(["read", "write"])), createdAt: Instant,
  lastUsedAt: v.nullable(Instant),
});
export const CreatedTokenAnswer = v.object({
  id: Id, name: v.string(), projectId: v.nullable(Id), scopes: v.array(v.picklist(["read", "write"])), createdAt: Instant, token: v.string(),
});

export const ActivityAnswer = v.object({
  items: v.array(v.object({
    id: Id, at: Instant, actor: v.looseObject({ type: v.picklist(["user", "telegram", "system"]) }),
    action: v.picklist(ACTIVITY_ACTIONS), target: v.object({ type: v.string(), id: v.nullable(Id) }), details: v.looseObject({}),
  })),
  next: v.nullable(Id),
});

const AdPriceAnswer = v.object({ amount: v.number(), currency: v.picklist(AD_CURRENCIES) });

/** The ad report (AdReport in contract/ads.ts). */
export const AdReportAnswer = v.object({
  items: v.array(v.object({
    postId: Id, title: v.string(), advertiser: v.string(), erid: v.string(), scheduledFor: Instant, publishedAt: v.nullable(Instant),
    topUntil: Instant, removeAt: v.nullable(Instant), removedAt: v.nullable(Instant), price: v.nullable(AdPriceAnswer),
    reactions: v.pipe(v.number(), v.integer()),
  })),
  totals: v.array(AdPriceAnswer),
});
