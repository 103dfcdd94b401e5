import * as v from "valibot";
import { withoutControlCharacters } from "./text.ts";

/** Spec §4: a report's statuses; an admin may move a report from any of them to any other. */
export const BUG_REPORT_STATUSES = ["new", "in_progress", "resolved", "closed"] as const;
export type BugReportStatus = (typeof BUG_REPORT_STATUSES)[number];

export const BUG_REPORT_DESCRIPTION_MAX = 10_000;
const PAGE_URL_MAX = 2000;

// A missing field reads as "" so it fails with the spec's message (§5), as a blank one does.
export const BugReportDescriptionSchema = v.pipe(
  v.nullish(v.string("bugReports.descriptionRequired"), ""),
  v.trim(),
  v.nonEmpty("bugReports.descriptionRequired"),
  v.maxLength(BUG_REPORT_DESCRIPTION_MAX, "bugReports.descriptionTooLong"),
  withoutControlCharacters(), // a multipart field: api/validate.ts checks only JSON bodies
);

/**
 * Where the reporter was. Only an http(s) address is kept: admins open it as a link, so
 * anything else (javascript:, data:) is dropped rather than stored; it never fails a report.
 */
export const PageUrlSchema = v.pipe(
  v.unknown(),
  v.transform((value) => {
    if (typeof value !== "string" || value.length > PAGE_URL_MAX) return null;
    return isWebAddress(value.trim()) ? value.trim() : null;
  }),
);

export function isWebAddress(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/** The text fields of the multipart POST /api/bug-reports; the screenshot is checked by its bytes. */
export const BugReportFormSchema = v.object({
  description: BugReportDescriptionSchema,
  pageUrl: PageUrlSchema,
});

// The object's own message covers a missing status too.
export const BugReportStatusSchema = v.object(
  { status: v.picklist(BUG_REPORT_STATUSES, "bugReports.statusInvalid") },
  "bugReports.statusInvalid",
);

/** A bug report as the admin calls answer it (spec §3). */
export type BugReport = {
  id: number;
  userId: number | null;
  description: string;
  screenshotUrl: string | null;
  pageUrl: string | null;
  userAgent: string | null;
  status: BugReportStatus;
  createdAt: string;
  updatedAt: string;
  user: { email: string } | null;
};

/**
 * Spec §3: the admin dashboard's counters; "today" is the current UTC day. The bug-report
 * counts are ours: the bug-report list comes a page at a time, so its total and the number of
 * new reports (the tab's badge) are counted here.
 */
export type AdminStats = {
  userCount: number;
  postCount: number;
  scheduledTodayCount: number;
  bugReportCount: number;
  newBugReportCount: number;
};

/** Spec §3: one row of the admin users table. */
export type AdminUserRow = {
  id: number;
  email: string;
  isAdmin: boolean;
  projectCount: number;
  channelCount: number;
  postCount: number;
  draftCount: number;
};
