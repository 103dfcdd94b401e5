import * as v from "valibot";
import {
  DEFAULT_LANGUAGE,
  DEFAULT_TIMEZONE,
  LANGUAGES,
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
  PROJECT_SOURCES_MAX,
  TIMEZONES,
  WRITING_STYLE_DEFAULTS,
  WRITING_STYLE_RANGES,
} from "./limits.ts";

export type WritingStyle = { formality: number; seriousness: number; emojiUsage: number };

/**
 * Named writing styles (spec §3) are presets: choosing one moves the sliders it is about.
 * They are not stored separately; the three numbers are the project's style.
 */
export const NAMED_WRITING_STYLES = {
  casual: { formality: 1 },
  formal: { formality: 4 },
  playful: { seriousness: 1 },
  serious: { seriousness: 4 },
  noEmojis: { emojiUsage: 0 },
  manyEmojis: { emojiUsage: 2 },
} as const satisfies Record<string, Partial<WritingStyle>>;
export type NamedWritingStyle = keyof typeof NAMED_WRITING_STYLES;

export const ADMIN_HANDLE_PATTERN = /^@?[A-Za-z0-9_]{5,}$/;

const level = (range: { min: number; max: number }, name: string) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.integer(`${name} must be a whole number`),
    v.minValue(range.min, `${name} must be between ${range.min} and ${range.max}`),
    v.maxValue(range.max, `${name} must be between ${range.min} and ${range.max}`),
  );

const WritingStyleObject = v.object({
  formality: level(WRITING_STYLE_RANGES.formality, "Formality"),
  seriousness: level(WRITING_STYLE_RANGES.seriousness, "Seriousness"),
  emojiUsage: level(WRITING_STYLE_RANGES.emojiUsage, "Emoji usage"),
});

/** Spec §3: writingStyle travels as an object or as JSON text of one. */
export const WritingStyleSchema = v.pipe(
  v.union([
    WritingStyleObject,
    v.pipe(
      v.string("Invalid writing style"),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        try {
          return JSON.parse(dataset.value) as unknown;
        } catch {
          addIssue({ message: "Invalid writing style" });
          return NEVER;
        }
      }),
      WritingStyleObject,
    ),
  ], "Invalid writing style"),
);

// Required text fields read a missing value as "" so it fails with the spec's message.
export const ProjectNameSchema = v.pipe(
  v.optional(v.string("Project name is required"), ""),
  v.trim(),
  v.nonEmpty("Project name is required"),
  v.maxLength(PROJECT_NAME_MAX, `Project name must be at most ${PROJECT_NAME_MAX} characters`),
);

export const AdminHandleSchema = v.pipe(
  v.optional(v.string("Admin's Telegram handle is required"), ""),
  v.trim(),
  v.nonEmpty("Admin's Telegram handle is required"),
  v.regex(ADMIN_HANDLE_PATTERN, "Invalid Telegram handle format"),
  v.maxLength(64, "Invalid Telegram handle format"),
);

const optionalText = (max: number, name: string) =>
  v.optional(
    v.pipe(
      v.nullable(v.string(`${name} must be text`)),
      v.transform((value) => (value ?? "").trim()),
      v.maxLength(max, `${name} must be at most ${max} characters`),
    ),
    "",
  );

export const TimezoneSchema = v.picklist(TIMEZONES, "Choose a timezone from the list");
export const LanguageSchema = v.picklist(LANGUAGES, "Language must be ru or en");

export const ProjectCreateSchema = v.object({
  name: ProjectNameSchema,
  description: optionalText(PROJECT_DESCRIPTION_MAX, "Description"),
  writingStyle: v.optional(WritingStyleSchema, { ...WRITING_STYLE_DEFAULTS }),
  adminHandle: AdminHandleSchema,
  timezone: v.optional(TimezoneSchema, DEFAULT_TIMEZONE),
  language: v.optional(LanguageSchema, DEFAULT_LANGUAGE),
  sources: optionalText(PROJECT_SOURCES_MAX, "Sources"),
});
export type ProjectCreateInput = v.InferInput<typeof ProjectCreateSchema>;

/** PATCH: every field optional, each validated as on create when present. */
export const ProjectUpdateSchema = v.object({
  name: v.optional(ProjectNameSchema),
  description: v.optional(optionalText(PROJECT_DESCRIPTION_MAX, "Description")),
  writingStyle: v.optional(WritingStyleSchema),
  adminHandle: v.optional(AdminHandleSchema),
  timezone: v.optional(TimezoneSchema),
  language: v.optional(LanguageSchema),
  sources: v.optional(optionalText(PROJECT_SOURCES_MAX, "Sources")),
});

/** A project as the API answers it. */
export type Project = {
  id: number;
  userId: number;
  name: string;
  description: string;
  writingStyle: WritingStyle;
  adminHandle: string;
  timezone: string;
  language: string;
  sources: string;
  createdAt: string;
};

/** The API's error body for every non-OK answer. */
export type ErrorBody = { message: string; code: string };
