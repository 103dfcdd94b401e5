import useSWR, { mutate } from "swr";
import * as v from "valibot";
import { WRITING_STYLE_DEFAULTS } from "../../../contract/limits.ts";
import { WritingStyleSchema, type Project, type WritingStyle } from "../../../contract/projects.ts";
import type { ProjectOverview } from "../../../contract/stats.ts";
import { apiFetch } from "./fetcher.ts";
import { channelsKey } from "./channels.ts";

export const PROJECTS_KEY = "/api/projects";
export const projectKey = (id: number) => `/api/projects/${id}`;
export const PROJECTS_OVERVIEW_KEY = "/api/projects/overview";

/** What the create form sends (spec §7). */
export type ProjectInput = {
  name: string;
  description: string;
  writingStyle: WritingStyle;
  adminHandle: string;
  timezone: string;
  sources: string;
};
export type ProjectUpdateInput = ProjectInput & { language: string };

/** Spec §3: writingStyle may come back as an object or as JSON text of one. */
function normalizeProject(project: Project): Project {
  const style = v.safeParse(WritingStyleSchema, project.writingStyle);
  return {
    ...project,
    description: project.description ?? "",
    sources: project.sources ?? "",
    writingStyle: style.success ? style.output : { ...WRITING_STYLE_DEFAULTS },
  };
}

async function fetchProjects(url: string): Promise<Project[]> {
  return (await apiFetch<Project[]>(url)).map(normalizeProject);
}

async function fetchProject(url: string): Promise<Project> {
  return normalizeProject(await apiFetch<Project>(url));
}

/** Route parameters are text; anything but a positive whole number is no project. */
export function parseProjectId(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function useProjects() {
  const { data, error, isLoading, mutate } = useSWR<Project[]>(PROJECTS_KEY, fetchProjects);
  return { projects: data ?? [], isLoading, error: error as unknown, mutate };
}

/**
 * Every home card's figures in one request (docs/statistics.md). The worker and the approver
 * move them on their own (samples, joins, approvals, failures), so the dashboard reads them
 * again whenever it opens rather than trusting the cache.
 */
export function useProjectsOverview() {
  const { data, error, isLoading } = useSWR<ProjectOverview[]>(PROJECTS_OVERVIEW_KEY, { revalidateIfStale: true });
  return { overview: data, isLoading, error: error as unknown };
}

export function useProject(id: number | null) {
  const { data, error, isLoading, mutate } = useSWR<Project>(id === null ? null : projectKey(id), fetchProject);
  return { project: data, isLoading, error: error as unknown, mutate };
}

export async function createProject(input: ProjectInput): Promise<Project> {
  const project = normalizeProject(await apiFetch<Project>(PROJECTS_KEY, { method: "POST", body: input }));
  await mutate(projectKey(project.id), project, { revalidate: false });
  void mutate<Project[]>(PROJECTS_KEY, (list) => (list ? [project, ...list] : list));
  void mutate(PROJECTS_OVERVIEW_KEY);
  return project;
}

export async function updateProject(id: number, input: ProjectUpdateInput): Promise<Project> {
  // Spec §7: PATCH carries writingStyle as JSON text.
  const body = { ...input, writingStyle: JSON.stringify(input.writingStyle) };
  const project = normalizeProject(await apiFetch<Project>(projectKey(id), { method: "PATCH", body }));
  await mutate(projectKey(id), project, { revalidate: false });
  void mutate<Project[]>(PROJECTS_KEY, (list) => list?.map((item) => (item.id === id ? project : item)));
  // a new admin handle may have asked an approver in Telegram: the channel card shows it
  if (input.adminHandle !== undefined) void mutate(channelsKey(id));
  return project;
}

export async function deleteProject(id: number): Promise<void> {
  await apiFetch(projectKey(id), { method: "DELETE" });
  void mutate<Project[]>(PROJECTS_KEY, (list) => list?.filter((item) => item.id !== id));
  void mutate<ProjectOverview[]>(PROJECTS_OVERVIEW_KEY, (list) => list?.filter((item) => item.projectId !== id), { revalidate: false });
  void mutate(projectKey(id), undefined, { revalidate: false });
}
