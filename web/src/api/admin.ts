import useSWR, { mutate } from "swr";
import useSWRInfinite, { unstable_serialize } from "swr/infinite";
import { ADMIN_PAGE_SIZE } from "../../../contract/admin.ts";
import type {
  AdminStats,
  AdminUserRow,
  BugReport,
  BugReportStatus,
} from "../../../contract/bug_reports.ts";
import { apiFetch } from "./fetcher.ts";

export const ADMIN_STATS_KEY = "/api/admin/stats";
export const ADMIN_USERS_KEY = "/api/admin/users";
export const ADMIN_BUG_REPORTS_KEY = "/api/admin/bug-reports";

export function useAdminStats() {
  const { data, error, isLoading, isValidating, mutate } = useSWR<AdminStats>(ADMIN_STATS_KEY);
  return { stats: data, isLoading, isValidating, error: error as unknown, mutate };
}

/*
 * The admin lists come a page at a time (api/routes/admin.ts). Each page asks for one row
 * more than it shows: that row only tells that another page exists, and the next page starts
 * after the last row shown.
 */
const PAGE_QUERY = `limit=${ADMIN_PAGE_SIZE + 1}`;

function paged<T>(pages: T[][] | undefined) {
  return {
    rows: pages?.flatMap((page) => page.slice(0, ADMIN_PAGE_SIZE)) ?? [],
    hasMore: (pages?.at(-1)?.length ?? 0) > ADMIN_PAGE_SIZE,
  };
}

/** Page `index` of the users table for an e-mail search ("" for everyone), by id. */
const usersPageKey = (search: string) => (index: number, previous: AdminUserRow[] | null) => {
  const first = `${ADMIN_USERS_KEY}?${PAGE_QUERY}${search ? `&q=${encodeURIComponent(search)}` : ""}`;
  if (index === 0 || !previous) return first;
  if (previous.length <= ADMIN_PAGE_SIZE) return null;
  return `${first}&after=${previous[ADMIN_PAGE_SIZE - 1].id}`;
};

/**
 * The users whose e-mail contains `search` (everyone when empty). While a new search loads,
 * the previous rows stay on screen and `isSearching` is true.
 */
export function useAdminUsers(search: string) {
  const { data, error, isLoading, mutate, size, setSize } = useSWRInfinite<AdminUserRow[]>(
    usersPageKey(search.trim()),
    { keepPreviousData: true },
  );
  const { rows, hasMore } = paged(data);
  return {
    users: rows,
    isLoading: isLoading && data === undefined,
    isSearching: isLoading && data !== undefined,
    error: error as unknown,
    mutate,
    hasMore: hasMore && !isLoading,
    isLoadingMore: data !== undefined && data.length < size,
    loadMore: () => setSize(size + 1),
  };
}

/** Page `index` of the bug reports, newest first: each after the last report of the one before. */
const bugReportsPageKey = (index: number, previous: BugReport[] | null) => {
  const first = `${ADMIN_BUG_REPORTS_KEY}?${PAGE_QUERY}`;
  if (index === 0 || !previous) return first;
  if (previous.length <= ADMIN_PAGE_SIZE) return null;
  const last = previous[ADMIN_PAGE_SIZE - 1];
  return `${first}&before=${encodeURIComponent(last.createdAt)}&beforeId=${last.id}`;
};
const BUG_REPORT_PAGES_KEY = unstable_serialize(bugReportsPageKey);

/**
 * Both admin screens read the same pages, so a change on one shows on the other. How many
 * there are in all, and how many are new, come from the stats (useAdminStats).
 */
export function useAdminBugReports() {
  const { data, error, isLoading, isValidating, mutate, size, setSize } = useSWRInfinite<BugReport[]>(
    bugReportsPageKey,
  );
  const { rows, hasMore } = paged(data);
  return {
    reports: rows,
    isLoading,
    isValidating,
    error: error as unknown,
    mutate,
    hasMore,
    isLoadingMore: data !== undefined && data.length < size,
    loadMore: () => setSize(size + 1),
  };
}

/** A report was added or changed: its pages and the counts refresh. */
export function refreshBugReports() {
  return Promise.all([mutate(BUG_REPORT_PAGES_KEY), mutate(ADMIN_STATS_KEY)]);
}

/** Shows the new status at once and puts the old one back if the server refuses. */
export async function updateBugReportStatus(id: number, status: BugReportStatus): Promise<void> {
  const withStatus = (pages: BugReport[][] | undefined, changes: Partial<BugReport>) =>
    pages?.map((page) => page.map((report) => (report.id === id ? { ...report, ...changes } : report)));
  await mutate<BugReport[][]>(
    BUG_REPORT_PAGES_KEY,
    async (pages) => {
      const saved = await apiFetch<Omit<BugReport, "user">>(`${ADMIN_BUG_REPORTS_KEY}/${id}`, {
        method: "PATCH",
        body: { status },
      });
      return withStatus(pages, { status: saved.status, updatedAt: saved.updatedAt });
    },
    {
      optimisticData: (pages) => withStatus(pages, { status }) ?? [],
      rollbackOnError: true,
      populateCache: true,
      revalidate: false,
    },
  );
  void mutate(ADMIN_STATS_KEY); // the count of new reports (the tab's badge)
}
