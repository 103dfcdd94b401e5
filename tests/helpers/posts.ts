/*
 * A post as the API answers it, with every field a plain planned one-time post has; a test
 * names only what it is about.
 */
import type { DraftSummary } from "../../contract/drafts.ts";
import type { Post } from "../../contract/posts.ts";

export const post = (fields: Partial<Post> & { id: number; scheduledFor: string }): Post => ({
  projectId: 1,
  draftId: null,
  createdBy: null,
  reviewAuthorId: null,
  reviewAuthorEmail: null,
  reviewPublish: false,
  returnedAt: null,
  seriesId: null,
  title: "",
  content: "",
  entities: [],
  imageUrl: null,
  imageUrls: [],
  options: {},
  ad: null,
  adState: null,
  status: "draft",
  editedAt: null,
  pendingEdit: null,
  channelChanged: false,
  planId: null,
  awaitingText: false,
  endsAfter: null,
  endsOn: null,
  occurrencesMade: 0,
  skippedOccurrences: [],
  createdAt: "2025-03-01T00:00:00Z",
  isRecurring: false,
  recurringType: "none",
  recurringLastPost: null,
  approvalMessageIds: {},
  publishedLinks: {},
  publishedAt: null,
  lastErrorCode: null,
  lastErrorParams: {},
  ...fields,
});

/** A draft as the drafts list has it; `scheduledPostId` names the live post holding it. */
export const draft = (id: number, title: string, order: number, scheduledPostId: number | null = null): DraftSummary => ({
  id, projectId: 1, title, excerpt: `${title} text`, imageUrl: null, imageCount: 0, order, status: "draft",
  createdAt: "2025-03-01T00:00:00Z", scheduledPostId, heldBySeriesId: null, heldByPlanId: null, nextForSeriesId: null,
});
