import * as v from "valibot";
import type { ErrorCode } from "./error_codes.ts";
import { CHAT_CONTEXT_MESSAGES, CHAT_HISTORY_PAGE_SIZE, DRAFTS_PER_GENERATION_MAX, GENERATED_POST_LENGTH, GENERATED_TITLES } from "./limits.ts";

const clamp = (min: number, max: number) => (n: number) => Math.min(max, Math.max(min, Math.round(n)));

/** Spec §5: post length input 100–4000, default 1500 (out-of-range values are clamped). */
export const PostLengthSchema = v.optional(
  v.pipe(v.number("ai.postLengthInvalid"), v.finite("ai.postLengthInvalid"), v.transform(clamp(GENERATED_POST_LENGTH.min, GENERATED_POST_LENGTH.max))),
  GENERATED_POST_LENGTH.default,
);

export const GeneratePostSchema = v.object({
  title: v.pipe(v.optional(v.string("drafts.titleRequired"), ""), v.trim(), v.nonEmpty("drafts.titleRequired"), v.maxLength(500, "drafts.titleTooLong")),
  postLength: PostLengthSchema,
  /** Accepted for the spec's client, which always sends "en"; the project's language decides (docs/autopilot-and-ai.md). */
  language: v.optional(v.string()),
});

/** Spec §5: generated titles count clamped to 1–30, default 20. */
export const GenerateTitlesSchema = v.optional(
  v.object({
    count: v.optional(
      v.pipe(v.number("ai.titleCountInvalid"), v.finite("ai.titleCountInvalid"), v.transform(clamp(GENERATED_TITLES.min, GENERATED_TITLES.max))),
      GENERATED_TITLES.default,
    ),
  }),
  { count: GENERATED_TITLES.default },
);

export const GenerateContentSchema = v.object({
  draftIds: v.pipe(
    v.optional(v.array(v.pipe(v.number(), v.integer(), v.minValue(1)), "drafts.noSelectedDrafts"), []),
    v.minLength(1, "drafts.noSelectedDrafts"),
    v.maxLength(DRAFTS_PER_GENERATION_MAX, "drafts.tooManyDraftsSelected"),
  ),
  postLength: PostLengthSchema,
});

export const CHAT_MODES = ["general", "editor", "title", "improver"] as const;

export const ChatSchema = v.object({
  message: v.pipe(v.optional(v.string("chat.emptyMessage"), ""), v.trim(), v.nonEmpty("chat.emptyMessage"), v.maxLength(8000, "chat.messageTooLong")),
  mode: v.optional(v.picklist(CHAT_MODES, "chat.modeInvalid"), "general"),
  currentContent: v.optional(v.pipe(v.nullable(v.string()), v.transform((s) => s ?? ""), v.maxLength(20000)), ""),
  history: v.pipe(
    v.optional(v.array(v.object({ role: v.picklist(["user", "assistant"]), content: v.pipe(v.string(), v.maxLength(20000)) })), []),
    v.transform((h) => h.slice(-CHAT_CONTEXT_MESSAGES)),
  ),
});

/**
 * A content-generation job as polled (spec §3). A failure is stored as its error code
 * (`errorCode`, and `code` for each failed draft), worded by whoever shows it; `error` is its
 * English message, for API clients.
 */
export type GenerationJob = {
  jobId: number;
  status: "pending" | "processing" | "completed" | "failed";
  result: {
    progress: { completed: number; total: number };
    failed?: { draftId: number; error: string; code: ErrorCode }[];
  };
  error: string | null;
  errorCode: ErrorCode | null;
};

export type ChatMessage = { id: number; role: "user" | "assistant"; content: string; timestamp: string };

/** A page of the chat's history (`GET …/chat/history`), newest page first. */
export const ChatHistoryQuery = v.object({
  page: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(100000)), "1"),
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(50)), String(CHAT_HISTORY_PAGE_SIZE)),
});
