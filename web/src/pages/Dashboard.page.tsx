import { Button, EmptyState, Group, SimpleGrid, Skeleton, Card, Text } from "@mantine/core";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/SimpleGrid.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import "@mantine/core/styles/Card.layer.css";
import { useUser } from "../api/auth.ts";
import { useProjects } from "../api/projects.ts";
import { IconFolder, IconPlus } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectCard } from "../components/ProjectCard/ProjectCard.tsx";
import { useOpenCreateProject } from "../components/Shell/createProjectContext.ts";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

const GRID_COLS = { base: 1, sm: 2, lg: 3 };

export default function DashboardPage() {
  const t = useT();
  usePageTitle(t("dashboard.title"));
  const { user } = useUser();
  const { projects, isLoading, error, mutate } = useProjects();
  const openCreateProject = useOpenCreateProject();
  const name = user?.email.split("@")[0] ?? "";

  return (
    <>
      <PageHeader
        title={t("dashboard.greeting", { name })}
        titleProps={{ "data-testid": "greeting" }}
        description={t("dashboard.chooseProject")}
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={openCreateProject} data-testid="new-project">
            {t("dashboard.newProject")}
          </Button>
        }
      />

      {isLoading ? (
        <SimpleGrid cols={GRID_COLS} spacing="md" aria-busy="true" aria-label={t("common.loading")}>
          {[0, 1, 2].map((index) => (
            <Card key={index} padding="lg">
              <Skeleton height={20} width="60%" mb="md" />
              <Skeleton height={12} mb={8} />
              <Skeleton height={12} width="80%" mb="lg" />
              <Skeleton height={10} width="40%" />
            </Card>
          ))}
        </SimpleGrid>
      ) : error ? (
        <Card padding="lg">
          <Group justify="space-between" gap="md">
            <Text c="red.7">{t("dashboard.loadFailed")}</Text>
            <Button variant="default" onClick={() => void mutate()}>
              {t("common.retry")}
            </Button>
          </Group>
        </Card>
      ) : projects.length === 0 ? (
        <Card padding="xl" style={{ borderStyle: "dashed" }}>
          <EmptyState
            py="xl"
            variant="light"
            icon={<IconFolder size={26} />}
            title={t("dashboard.emptyTitle")}
            description={t("dashboard.emptyText")}
          >
            <EmptyState.Actions>
              <Button leftSection={<IconPlus size={18} />} onClick={openCreateProject}>
                {t("dashboard.createFirst")}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      ) : (
        <SimpleGrid cols={GRID_COLS} spacing="md">
          {projects.map((project) => (
            <ProjectCard key={project.id} project={project} />
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
