import { Anchor } from "@mantine/core";
import { Link, useParams } from "react-router-dom";
import { parseProjectId, useProject } from "../api/projects.ts";
import { ComingSoon } from "../components/ComingSoon/ComingSoon.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconArrowLeft } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";
import { PROJECT_SECTIONS, projectPath, type ProjectSectionPath } from "../lib/projectSections.ts";

/**
 * The five project screens before their own work lands: the proper title inside the shell
 * and a note that the screen comes in this release. Each route gets replaced by its page.
 */
export default function ProjectSectionPage({ section }: { section: ProjectSectionPath }) {
  const t = useT();
  const { titleKey, descriptionKey, Icon } = PROJECT_SECTIONS.find(({ path }) => path === section)!;
  const projectId = parseProjectId(useParams().id);
  const { project, error } = useProject(projectId);
  usePageTitle(t(titleKey));

  if (projectId === null || error) return <ProjectLoadError />;
  if (!project) return <FullPageLoader fullHeight={false} />;

  return (
    <>
      <PageHeader
        eyebrow={
          <Anchor component={Link} to={projectPath(project.id)} size="sm" c="dimmed" style={{ display: "inline-flex", alignItems: "center", gap: 4, width: "fit-content" }}>
            <IconArrowLeft size={14} />
            {project.name}
          </Anchor>
        }
        title={t(titleKey)}
        description={t(descriptionKey)}
      />
      <ComingSoon icon={<Icon size={24} />} />
    </>
  );
}
