import { ActionIcon, Badge, NavLink, Skeleton, Stack, Text, Tooltip } from "@mantine/core";
import "@mantine/core/styles/NavLink.layer.css";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import "@mantine/core/styles/Tooltip.layer.css";
import { useState } from "react";
import { Link, useLocation } from "react-router-dom";
import type { Project } from "../../../../contract/projects.ts";
import { roleCan } from "../../../../contract/team.ts";
import { useReviewQueue } from "../../api/review.ts";
import { logout, useUser } from "../../api/auth.ts";
import { useProjects } from "../../api/projects.ts";
import { useSandbox } from "../../api/sandbox.ts";
import { useT } from "../../i18n/i18n.tsx";
import { serverMessage } from "../../lib/messages.ts";
import { PROJECT_SECTIONS, projectPath } from "../../lib/projectSections.ts";
import { toastError } from "../../lib/toast.ts";
import {
  IconCreditCard,
  IconFolder,
  IconHome,
  IconHourglass,
  IconLogout,
  IconPlus,
  IconSend,
  IconSettings,
  IconShield,
  PressaMark,
} from "../Icons/Icons.tsx";
import classes from "./Sidebar.module.css";

type SidebarProps = { onCreateProject: () => void };

export function Sidebar({ onCreateProject }: SidebarProps) {
  const t = useT();
  const { pathname } = useLocation();
  const { user } = useUser();
  const { projects, isLoading } = useProjects();
  const [loggingOut, setLoggingOut] = useState(false);
  // only while `npm run demo` runs the Telegram sandbox (404 otherwise)
  const { on: sandboxOn } = useSandbox({ poll: false });

  const handleLogout = async () => {
    setLoggingOut(true);
    try {
      // Once the session is gone the route guard sends the page to /auth.
      await logout();
    } catch (error) {
      toastError(t("auth.logoutFailed"), serverMessage(t, error));
      setLoggingOut(false);
    }
  };

  const isCurrent = (path: string) => pathname === path;

  return (
    <nav className={classes.nav} aria-label={t("nav.main")}>
      <Link to="/" className={classes.brand} aria-label={t("nav.home")}>
        <PressaMark size={26} />
        <span className={classes.brandName}>Pressa</span>
      </Link>

      <div className={classes.scroll}>
        <NavLink
          component={Link}
          to="/"
          className={classes.link}
          label={t("nav.dashboard")}
          leftSection={<IconHome size={18} />}
          active={isCurrent("/")}
          aria-current={isCurrent("/") ? "page" : undefined}
        />

        <div className={classes.sectionLabel}>
          <Text size="xs" fw={600} c="dimmed" tt="uppercase" lts="0.04em">
            {t("nav.projects")}
          </Text>
          <Tooltip label={t("nav.newProject")} position="right">
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t("nav.newProject")} onClick={onCreateProject}>
              <IconPlus size={16} />
            </ActionIcon>
          </Tooltip>
        </div>

        {isLoading ? (
          <Stack gap={8} px={10} py={6} aria-hidden="true">
            <Skeleton height={14} radius="sm" width="80%" />
            <Skeleton height={14} radius="sm" width="65%" />
            <Skeleton height={14} radius="sm" width="72%" />
          </Stack>
        ) : projects.length === 0 ? (
          <Text size="xs" c="dimmed" px={10} py={6}>
            {t("nav.noProjects")}
          </Text>
        ) : (
          projects.map((project) => <ProjectNavItem key={project.id} project={project} pathname={pathname} />)
        )}
      </div>

      <div className={classes.footer}>
        {sandboxOn && (
          <NavLink
            component={Link}
            to="/sandbox"
            className={classes.link}
            label={t("nav.sandbox")}
            leftSection={<IconSend size={18} />}
            active={isCurrent("/sandbox")}
            aria-current={isCurrent("/sandbox") ? "page" : undefined}
            data-testid="nav-sandbox"
          />
        )}
        <NavLink
          component={Link}
          to="/settings"
          className={classes.link}
          label={t("nav.settings")}
          leftSection={<IconSettings size={18} />}
          active={isCurrent("/settings")}
          aria-current={isCurrent("/settings") ? "page" : undefined}
        />
        <NavLink
          component="button"
          type="button"
          className={classes.link}
          label={t("nav.billing")}
          leftSection={<IconCreditCard size={18} />}
          rightSection={
            <Badge size="xs" variant="light" color="gray">
              {t("common.soon")}
            </Badge>
          }
          disabled
          aria-disabled="true"
          tabIndex={-1}
        />
        {user?.isAdmin && (
          <NavLink
            component={Link}
            to="/admin"
            className={classes.link}
            label={t("nav.admin")}
            leftSection={<IconShield size={18} />}
            active={pathname.startsWith("/admin")}
            aria-current={isCurrent("/admin") ? "page" : undefined}
          />
        )}
        {user && (
          <Text size="xs" c="dimmed" truncate="end" className={classes.email} title={user.email}>
            {user.email}
          </Text>
        )}
        <NavLink
          component="button"
          type="button"
          className={classes.link}
          label={t("nav.logout")}
          leftSection={<IconLogout size={18} />}
          onClick={() => void handleLogout()}
          disabled={loggingOut}
        />
      </div>
    </nav>
  );
}

function ProjectNavItem({ project, pathname }: { project: Project; pathname: string }) {
  const t = useT();
  const base = projectPath(project.id);
  const expanded = pathname === base || pathname.startsWith(`${base}/`);

  return (
    <>
      <NavLink
        component={Link}
        to={base}
        className={classes.link}
        label={project.name}
        title={project.name}
        leftSection={<IconFolder size={18} />}
        active={pathname === base}
        aria-current={pathname === base ? "page" : undefined}
      />
      {expanded && (
        <div className={classes.subLinks}>
          {PROJECT_SECTIONS.map(({ path, titleKey, Icon }) => {
            const to = projectPath(project.id, path);
            return (
              <NavLink
                key={path}
                component={Link}
                to={to}
                className={classes.subLink}
                label={t(titleKey)}
                leftSection={<Icon size={15} />}
                active={pathname === to}
                aria-current={pathname === to ? "page" : undefined}
              />
            );
          })}
          {roleCan(project.role, "posts.review") && <ReviewNavLink projectId={project.id} pathname={pathname} />}
        </div>
      )}
    </>
  );
}

/** The review queue of a project, with how many posts wait (for those who review). */
function ReviewNavLink({ projectId, pathname }: { projectId: number; pathname: string }) {
  const t = useT();
  const { queue } = useReviewQueue(projectId);
  const to = `${projectPath(projectId)}/review`;
  return (
    <NavLink
      component={Link}
      to={to}
      className={classes.subLink}
      label={t("review.title")}
      leftSection={<IconHourglass size={15} />}
      rightSection={queue.length > 0
        ? (
          <Badge size="sm" variant="filled" color="blue" circle data-testid="review-badge">
            {queue.length}
          </Badge>
        )
        : undefined}
      active={pathname === to}
      aria-current={pathname === to ? "page" : undefined}
      data-testid="nav-review"
    />
  );
}
