import { Button, EmptyState, Group, SimpleGrid, Skeleton, Card, Text } from "@mantine/core";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/SimpleGrid.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import "@mantine/core/styles/Card.layer.css";
import { lazy, Suspense, useRef, useState } from "react";
import { useUser } from "../api/auth.ts";
import { useProjects, useProjectsOverview } from "../api/projects.ts";
import { IconFolder, IconPlus } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectCard } from "../components/ProjectCard/ProjectCard.tsx";
import { useOpenCreateProject } from "../components/Shell/createProjectContext.ts";
import { useFocusFallback } from "../hooks/useFocusFallback.ts";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

const GRID_COLS = { base: 1, sm: 2, lg: 3 };

// Loaded when a card's queue warning first asks for titles.
const BulkAddDialog = lazy(() =>
  import("../components/BulkAddDialog/BulkAddDialog.tsx").then(({ BulkAddDialog }) => ({ default: BulkAddDialog })),
);

/** A queue warning's request: this project's bulk-add dialog, asking the AI for `count` titles. */
type TitlesRequest = { projectId: number; count: number };

export default function DashboardPage() {
  const t = useT();
  usePageTitle(t("dashboard.title"));
  const { user } = useUser();
  const { projects, isLoading, error, mutate } = useProjects();
  // every card's figures in one request; a card without them (the read failed) still opens its project
  const { overview, isLoading: figuresLoading } = useProjectsOverview();
  const figuresOf = new Map(overview?.map((figures) => [figures.projectId, figures]));
  const openCreateProject = useOpenCreateProject();
  const name = user?.email.split("@")[0] ?? "";
  const [titlesFor, setTitlesFor] = useState<TitlesRequest | null>(null);
  // The dialog keeps its project while it animates out.
  const lastTitlesFor = useRef<TitlesRequest | null>(null);
  if (titlesFor) lastTitlesFor.current = titlesFor;
  // Once the drafts are added the warning (and its button) is gone: the focus goes to that card.
  useFocusFallback(titlesFor !== null, () =>
    lastTitlesFor.current
      ? document.querySelector<HTMLElement>(`[data-project-id="${lastTitlesFor.current.projectId}"] a`)
      : null,
  );

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
        <SimpleGrid cols={GRID_COLS} spacing="md" role="status" aria-busy="true" aria-label={t("common.loading")}>
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
            <ProjectCard
              key={project.id}
              project={project}
              figures={figuresOf.get(project.id)}
              figuresLoading={figuresLoading && !overview}
              onAddTitles={(count) => setTitlesFor({ projectId: project.id, count })}
            />
          ))}
        </SimpleGrid>
      )}

      {lastTitlesFor.current && (
        <Suspense fallback={null}>
          <BulkAddDialog
            projectId={lastTitlesFor.current.projectId}
            opened={titlesFor !== null}
            generateOnOpen={lastTitlesFor.current.count}
            onClose={() => setTitlesFor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
