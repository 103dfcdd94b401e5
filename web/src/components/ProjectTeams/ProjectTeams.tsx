import { Anchor, Badge, Group } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import { Link } from "react-router-dom";
import { useProjects } from "../../api/projects.ts";
import { useT } from "../../i18n/i18n.tsx";
import { projectPath } from "../../lib/projectSections.ts";
import { ROLE_LABEL_KEYS } from "../../lib/roles.ts";
import { IconUsers } from "../Icons/Icons.tsx";
import { SectionCard } from "../SectionCard/SectionCard.tsx";

/** Settings' way to every project's Members screen (docs/teams.md), with the account's role in each. */
export function ProjectTeams() {
  const t = useT();
  const { projects } = useProjects();
  if (projects.length === 0) return null;
  return (
    <SectionCard title={t("settings.teams")} hint={t("settings.teamsHint")} testId="settings-teams">
      {projects.map((project) => (
        <Group key={project.id} justify="space-between" gap="sm" py={6} wrap="nowrap">
          <Anchor
            component={Link}
            to={projectPath(project.id, "members")}
            size="sm"
            // the text's own colour, underlined: the accent blue is too faint on a dark card
            c="var(--mantine-color-text)"
            underline="always"
            style={{ display: "inline-flex", alignItems: "center", gap: 6, minWidth: 0, overflowWrap: "anywhere" }}
          >
            <IconUsers size={16} style={{ flex: "none" }} />
            {t("settings.teamOf", { name: project.name })}
          </Anchor>
          <Badge variant="light" color="gray" size="sm" tt="none" style={{ flex: "none" }}>
            {t(ROLE_LABEL_KEYS[project.role])}
          </Badge>
        </Group>
      ))}
    </SectionCard>
  );
}
