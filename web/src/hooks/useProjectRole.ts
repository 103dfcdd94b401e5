import { useCallback } from "react";
import { type Action, type Role, roleCan } from "../../../contract/team.ts";
import { useProject, useProjects } from "../api/projects.ts";

/**
 * The caller's role in a project and what it lets them do (contract/team.ts ROLE_CAN), so a
 * page leaves out the controls the role cannot use. The database still decides every write.
 * Until the role is known `can` answers no: a control appears once, rather than vanishing.
 */
export function useProjectRole(projectId: number | null): { role: Role | undefined; can: (action: Action) => boolean } {
  const { project } = useProject(projectId);
  const { projects } = useProjects();
  const role = project?.role ?? projects.find((item) => item.id === projectId)?.role;
  const can = useCallback((action: Action) => roleCan(role, action), [role]);
  return { role, can };
}
