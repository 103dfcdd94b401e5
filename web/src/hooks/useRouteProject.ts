import { useParams } from "react-router-dom";
import { parseProjectId, useProject } from "../api/projects.ts";

/**
 * The project named by the `:id` of the current route. `failed` covers a malformed id, a
 * missing project (404) and a failed load alike: spec §2 shows one generic text for all.
 */
export function useRouteProject() {
  const projectId = parseProjectId(useParams().id);
  const { project, isLoading, error, mutate } = useProject(projectId);
  return { projectId, project, isLoading, error, mutate, failed: projectId === null || Boolean(error) };
}
