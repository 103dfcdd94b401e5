import type { Role } from "./team.ts";
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

const level = (field: keyof typeof WRITING_STYLE_RANGES) => {
  const { min, max } = WRITING_STYLE_RANGES[field];
  return v.pipe(
    v.number(`projects.${field}NotNumber`),
    v.integer(`projects.${field}NotWhole`),
    v.minValue(min, `projects.${field}OutOfRange`),
    v.maxValue(max, `projects.${field}OutOfRange`),
  );
};

const WritingStyleObject = v.object({
  formality: level("formality"),
  seriousness: level("seriousness"),
  emojiUsage: level("emojiUsage"),
});

/** Spec §3: writingStyle travels as an object or as JSON text of one. */
export const WritingStyleSchema = v.pipe(
  v.union([
    WritingStyleObject,
    v.pipe(
      v.string("projects.writingStyleInvalid"),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        try {
          return JSON.parse(dataset.value) as unknown;
        } catch {
          addIssue({ message: "projects.writingStyleInvalid" });
          return NEVER;
        }
      }),
      WritingStyleObject,
    ),
  ], "projects.writingStyleInvalid"),
);

// Required text fields read a missing value as "" so it fails with the spec's message.
// Messages are codes of error_codes.ts.
export const ProjectNameSchema = v.pipe(
  v.optional(v.string("projects.nameRequired"), ""),
  v.trim(),
  v.nonEmpty("projects.nameRequired"),
  v.maxLength(PROJECT_NAME_MAX, "projects.nameTooLong"),
);

export const AdminHandleSchema = v.pipe(
  v.optional(v.string("projects.adminHandleRequired"), ""),
  v.trim(),
  v.nonEmpty("projects.adminHandleRequired"),
  v.regex(ADMIN_HANDLE_PATTERN, "projects.adminHandleInvalid"),
  v.maxLength(64, "projects.adminHandleInvalid"),
);

const optionalText = (max: number, field: "description" | "sources") =>
  v.optional(
    v.pipe(
      v.nullable(v.string(`projects.${field}NotText`)),
      v.transform((value) => (value ?? "").trim()),
      v.maxLength(max, `projects.${field}TooLong`),
    ),
    "",
  );

export const TimezoneSchema = v.picklist(TIMEZONES, "projects.timezoneInvalid");
export const LanguageSchema = v.picklist(LANGUAGES, "projects.languageInvalid");

export const ProjectCreateSchema = v.object({
  name: ProjectNameSchema,
  description: optionalText(PROJECT_DESCRIPTION_MAX, "description"),
  writingStyle: v.optional(WritingStyleSchema, { ...WRITING_STYLE_DEFAULTS }),
  adminHandle: AdminHandleSchema,
  timezone: v.optional(TimezoneSchema, DEFAULT_TIMEZONE),
  language: v.optional(LanguageSchema, DEFAULT_LANGUAGE),
  sources: optionalText(PROJECT_SOURCES_MAX, "sources"),
});
export type ProjectCreateInput = v.InferInput<typeof ProjectCreateSchema>;

/** PATCH: every field optional, each validated as on create when present. */
export const ProjectUpdateSchema = v.object({
  name: v.optional(ProjectNameSchema),
  description: v.optional(optionalText(PROJECT_DESCRIPTION_MAX, "description")),
  writingStyle: v.optional(WritingStyleSchema),
  adminHandle: v.optional(AdminHandleSchema),
  timezone: v.optional(TimezoneSchema),
  language: v.optional(LanguageSchema),
  sources: v.optional(optionalText(PROJECT_SOURCES_MAX, "sources")),
});

/** A project as the API answers it, with the caller's role in it (contract/team.ts). */
export type Project = {
  id: number;
  /** The account that created it. */
  userId: number;
  role: Role;
  name: string;
  description: string;
  writingStyle: WritingStyle;
  adminHandle: string;
  timezone: string;
  language: string;
  sources: string;
  createdAt: string;
  updatedAt: string;
};

