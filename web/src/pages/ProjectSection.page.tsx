import { ComingSoon } from "../components/ComingSoon/ComingSoon.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { useRouteProject } from "../hooks/useRouteProject.ts";
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
  const { project, failed } = useRouteProject();
  usePageTitle(t(titleKey));

  if (failed) return <ProjectLoadError />;
  if (!project) return <FullPageLoader fullHeight={false} />;

  return (
    <>
      <PageHeader
        eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />}
        title={t(titleKey)}
        description={t(descriptionKey)}
      />
      <ComingSoon icon={<Icon size={24} />} />
    </>
  );
}
