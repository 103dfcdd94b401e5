import { Card, Text } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import { Link } from "react-router-dom";
import type { Project } from "../../../../api/contract/projects.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { formatDate } from "../../lib/formatDate.ts";
import { projectPath } from "../../lib/projectSections.ts";
import { IconCalendar, IconFolder } from "../Icons/Icons.tsx";
import classes from "./ProjectCard.module.css";

/** A dashboard card: the whole card is the link to the project. */
export function ProjectCard({ project }: { project: Project }) {
  const t = useT();
  const { language } = useLanguage();

  return (
    <Card component={Link} to={projectPath(project.id)} padding="lg" className={classes.card} data-testid="project-card">
      <div className={classes.head}>
        <span className={classes.icon}>
          <IconFolder size={18} />
        </span>
        <Text fw={600} size="md" truncate="end">
          {project.name}
        </Text>
      </div>
      <Text size="sm" c="dimmed" lineClamp={2} className={classes.description}>
        {project.description || t("dashboard.noDescription")}
      </Text>
      <Text size="xs" className={classes.footer}>
        <IconCalendar size={14} />
        {t("dashboard.created", { date: formatDate(project.createdAt, language) })}
      </Text>
    </Card>
  );
}
