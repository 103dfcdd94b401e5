import { Badge, Button, Card, SimpleGrid, Text, ThemeIcon } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/SimpleGrid.layer.css";
import "@mantine/core/styles/ThemeIcon.layer.css";
import { useDisclosure } from "@mantine/hooks";
import { Link } from "react-router-dom";
import { useChannels } from "../api/channels.ts";
import { useDrafts } from "../api/drafts.ts";
import { useProjectsOverview } from "../api/projects.ts";
import { FirstSteps } from "../components/FirstSteps/FirstSteps.tsx";
import { IconAt, IconChevronRight, IconClock, IconGlobe, IconPencil, IconShield, IconTrash } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { DeleteProjectDialog } from "../components/ProjectDialogs/DeleteProjectDialog.tsx";
import { EditProjectDialog } from "../components/ProjectDialogs/EditProjectDialog.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { useProjectRole } from "../hooks/useProjectRole.ts";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { useT } from "../i18n/i18n.tsx";
import { firstSteps } from "../lib/firstSteps.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { PROJECT_SECTIONS, projectPath } from "../lib/projectSections.ts";
import classes from "./Project.module.css";

export default function ProjectPage() {
  const t = useT();
  const { project, failed } = useRouteProject();
  // The approver Telegram confirmed, once a channel is connected (docs/trust-model.md).
  const { channels } = useChannels(project?.id ?? null);
  const approver = channels.find((channel) => channel.approver)?.approver;
  const { drafts, isLoading: draftsLoading } = useDrafts(project?.id ?? null);
  const overview = useProjectsOverview().overview?.find((card) => card.projectId === project?.id);
  const { can } = useProjectRole(project?.id ?? null);
  const [editOpened, editDialog] = useDisclosure(false);
  const [deleteOpened, deleteDialog] = useDisclosure(false);
  usePageTitle(project?.name ?? t("project.title"));

  if (failed) return <ProjectLoadError />;
  if (!project) return <FullPageLoader fullHeight={false} />;

  return (
    <>
      <PageHeader
        title={project.name}
        description={project.description || undefined}
        // the project's settings and its deletion are the owner's
        actions={
          can("project.update") || can("project.delete") ? (
            <>
              {can("project.update") && (
                <Button variant="default" leftSection={<IconPencil size={16} />} onClick={editDialog.open}>
                  {t("common.edit")}
                </Button>
              )}
              {can("project.delete") && (
                <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={deleteDialog.open}>
                  {t("common.delete")}
                </Button>
              )}
            </>
          ) : undefined
        }
      />

      <div className={classes.meta}>
        {approver ? (
          <Badge
            variant="default"
            size="lg"
            radius="sm"
            tt="none"
            fw={500}
            leftSection={<IconShield size={14} />}
            title={t("project.approverVerified")}
            data-testid="project-approver"
          >
            @{approver.handle}
            {approver.name ? ` · ${approver.name}` : ""}
          </Badge>
        ) : (
          <Badge variant="default" size="lg" radius="sm" tt="none" fw={500} leftSection={<IconAt size={14} />}>
            {project.adminHandle.replace(/^@/, "")}
          </Badge>
        )}
        <Badge variant="default" size="lg" radius="sm" tt="none" fw={500} leftSection={<IconClock size={14} />}>
          {project.timezone}
        </Badge>
        <Badge variant="default" size="lg" radius="sm" tt="none" fw={500} leftSection={<IconGlobe size={14} />}>
          {t(project.language === "en" ? "language.en" : "language.ru")}
        </Badge>
      </div>

      {overview && !draftsLoading && (
        <FirstSteps
          projectId={project.id}
          steps={firstSteps({
            channelConnected: channels.some((channel) => channel.status === "connected"),
            drafts: drafts.length,
            planned: overview.nextPostAt !== null || overview.awaitingApproval > 0 || overview.inReview > 0,
          })}
        />
      )}

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {PROJECT_SECTIONS.map(({ path, titleKey, descriptionKey, Icon }) => (
          <Card key={path} component={Link} to={projectPath(project.id, path)} padding="lg" className={classes.sectionCard}>
            <div className={classes.sectionHead}>
              <ThemeIcon variant="light" size={40} radius="md">
                <Icon size={20} />
              </ThemeIcon>
              <IconChevronRight size={18} className={classes.arrow} />
            </div>
            <div>
              <Text fw={600}>{t(titleKey)}</Text>
              <Text size="sm" c="dimmed" mt={2}>
                {t(descriptionKey)}
              </Text>
            </div>
          </Card>
        ))}
      </SimpleGrid>

      <EditProjectDialog project={project} opened={editOpened} onClose={editDialog.close} />
      <DeleteProjectDialog project={project} opened={deleteOpened} onClose={deleteDialog.close} />
    </>
  );
}
