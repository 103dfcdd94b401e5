import useSWR, { mutate } from "swr";
import type {
  AdminStats,
  AdminUserRow,
  BugReport,
  BugReportStatus,
} from "../../../api/contract/bug_reports.ts";
import { apiFetch } from "./fetcher.ts";

export const ADMIN_STATS_KEY = "/api/admin/stats";
export const ADMIN_USERS_KEY = "/api/admin/users";
export const ADMIN_BUG_REPORTS_KEY = "/api/admin/bug-reports";

export function useAdminStats() {
  const { data, error, isLoading, mutate } = useSWR<AdminStats>(ADMIN_STATS_KEY);
  return { stats: data, isLoading, error: error as unknown, mutate };
}

export function useAdminUsers() {
  const { data, error, isLoading, mutate } = useSWR<AdminUserRow[]>(ADMIN_USERS_KEY);
  return { users: data ?? [], isLoading, error: error as unknown, mutate };
}

/** Both admin screens read the same list, so a change on one shows on the other. */
export function useAdminBugReports() {
  const { data, error, isLoading, isValidating, mutate } = useSWR<BugReport[]>(ADMIN_BUG_REPORTS_KEY);
  return { reports: data ?? [], isLoading, isValidating, error: error as unknown, mutate };
}

/** Shows the new status at once and puts the old one back if the server refuses. */
export async function updateBugReportStatus(id: number, status: BugReportStatus): Promise<void> {
  const withStatus = (list: BugReport[] | undefined, changes: Partial<BugReport>) =>
    list?.map((report) => (report.id === id ? { ...report, ...changes } : report));
  await mutate<BugReport[]>(
    ADMIN_BUG_REPORTS_KEY,
    async (list) => {
      const saved = await apiFetch<Omit<BugReport, "user">>(`${ADMIN_BUG_REPORTS_KEY}/${id}`, {
        method: "PATCH",
        body: { status },
      });
      return withStatus(list, { status: saved.status, updatedAt: saved.updatedAt });
    },
    {
      optimisticData: (list) => withStatus(list, { status }) ?? [],
      rollbackOnError: true,
      populateCache: true,
      revalidate: false,
    },
  );
}
