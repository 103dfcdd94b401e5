import { Card, Text } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import { Link } from "react-router-dom";
import type { Project } from "../../../../contract/projects.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { formatDate } from "../../lib/formatDate.ts";
import { projectPath } from "../../lib/projectSections.ts";
import { IconCalendar, IconFolder } from "../Icons/Icons.tsx";
import { QueueHealth } from "../QueueHealth/QueueHealth.tsx";
import classes from "./ProjectCard.module.css";

type ProjectCardProps = {
  project: Project;
  /** Opens the bulk-add dialog for this project, asking the AI for `count` titles. */
  onAddTitles: (count: number) => void;
};

/**
 * A dashboard card: the whole card opens the project (its name is the link, stretched over the
 * card), except the queue warning's button, which is a control of its own.
 */
export function ProjectCard({ project, onAddTitles }: ProjectCardProps) {
  const t = useT();
  const { language } = useLanguage();

  return (
    <Card padding="lg" className={classes.card} data-testid="project-card" data-project-id={project.id}>
      <div className={classes.head}>
        <span className={classes.icon}>
          <IconFolder size={18} />
        </span>
        <Text component={Link} to={projectPath(project.id)} fw={600} size="md" truncate="end" className={classes.link}>
          {project.name}
        </Text>
      </div>
      <Text size="sm" c="dimmed" lineClamp={2} className={classes.description}>
        {project.description || t("dashboard.noDescription")}
      </Text>
      <QueueHealth projectId={project.id} timeZone={project.timezone} variant="card" onAddTitles={onAddTitles} />
      <Text size="xs" className={classes.footer}>
        <IconCalendar size={14} />
        {t("dashboard.created", { date: formatDate(project.createdAt, language) })}
      </Text>
    </Card>
  );
}
