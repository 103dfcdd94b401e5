import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { mutate } from "swr";
import { onProjectRefusal } from "../api/fetcher.ts";
import { PROJECTS_KEY, PROJECTS_OVERVIEW_KEY, projectKey, useProjects } from "../api/projects.ts";
import { useT } from "../i18n/i18n.tsx";
import { toastWarning } from "../lib/toast.ts";

/**
 * A removed member's open tab (docs/teams.md): the next request to the project answers 404,
 * and the person is taken to the dashboard and told why, instead of staring at a page whose
 * every action fails. Only for a project the account had (it was in its list): an address of
 * a project that never was theirs keeps the page's own "couldn't load" text. A refusal for the
 * role (changed meanwhile) reads the project again, so its pages follow the new role.
 */
export function useProjectGone() {
  const t = useT();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { projects } = useProjects();
  const latest = useRef({ pathname, projects, t });
  latest.current = { pathname, projects, t };

  useEffect(
    () =>
      onProjectRefusal((projectId, refusal) => {
        if (refusal === "forbidden") {
          void mutate(projectKey(projectId));
          void mutate(PROJECTS_KEY);
          return;
        }
        const { pathname, projects, t } = latest.current;
        const inside = pathname === `/project/${projectId}` || pathname.startsWith(`/project/${projectId}/`);
        if (!inside || !projects.some((project) => project.id === projectId)) return;
        // the list forgets it first, so the refused project cannot be opened again from it
        void mutate<{ id: number }[]>(PROJECTS_KEY, (list) => list?.filter((item) => item.id !== projectId));
        void mutate(PROJECTS_OVERVIEW_KEY);
        latest.current.pathname = "/";
        navigate("/", { replace: true });
        toastWarning(t("team.accessLost"), t("team.accessLostText"));
      }),
    [navigate],
  );
}
