import { ActionIcon, Badge, Button, Card, EmptyState, Group, Skeleton, Stack, Text, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import "@mantine/core/styles/Tooltip.layer.css";
import { useDisclosure } from "@mantine/hooks";
import { useRef, useState } from "react";
import { channelUsername, type Channel } from "../../../contract/channels.ts";
import { CHANNELS_PER_PROJECT } from "../../../contract/limits.ts";
import { deleteChannel, useChannels } from "../api/channels.ts";
import { AddChannelDialog } from "../components/AddChannelDialog/AddChannelDialog.tsx";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog/ConfirmDialog.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { IconClock, IconExternalLink, IconInfo, IconMegaphone, IconPlus, IconShield, IconTrash } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { PLATFORM_NAMES, PlatformMark } from "../components/PlatformMark/PlatformMark.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { useLanguage, useT } from "../i18n/i18n.tsx";
import { formatDate, formatMoment } from "../lib/formatDate.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { useProjectRole } from "../hooks/useProjectRole.ts";
import { toastError, toastSuccess } from "../lib/toast.ts";
import classes from "./Channels.module.css";

/** Spec §2 Channels: the project's channel, its status, and connecting or removing it. */
export default function ChannelsPage() {
  const t = useT();
  usePageTitle(t("section.channels"));
  const { projectId, project, failed } = useRouteProject();
  const { channels, isLoading, error, mutate } = useChannels(projectId);
  const { role, can } = useProjectRole(projectId);
  const manages = can("channel.manage");
  const [addOpened, addDialog] = useDisclosure(false);
  const [toDelete, setToDelete] = useState<Channel | null>(null);
  const [deleting, setDeleting] = useState(false);
  // What the confirmation names stays put while the dialog animates out.
  const lastToDelete = useRef<Channel | null>(null);
  if (toDelete) lastToDelete.current = toDelete;

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;

  const limitReached = channels.length >= CHANNELS_PER_PROJECT;

  const handleDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await deleteChannel(projectId, toDelete.id);
      toastSuccess(t("channels.deleted"), toDelete.link);
      setToDelete(null);
    } catch {
      toastError(t("channels.deleteFailedTitle"), t("channels.deleteFailedText"));
    } finally {
      setDeleting(false);
    }
  };

  // Only an owner connects or removes the channel; the others are told so where the button was.
  const ownerOnly = role !== undefined && (
    <Text size="sm" c="dimmed" className={classes.note} data-testid="channels-owner-only">
      <IconInfo size={16} style={{ flex: "none", marginTop: 2 }} />
      {t("channels.ownerOnly")}
    </Text>
  );
  const addButton = !manages ? ownerOnly : (
    <Tooltip
      label={t("channels.limitReachedTooltip")}
      position="bottom-end"
      disabled={!limitReached || isLoading}
      events={{ hover: true, focus: true, touch: true }}
    >
      <Button
        leftSection={<IconPlus size={18} />}
        // Disabled in look and behaviour, yet still hoverable and focusable so the tooltip explains why.
        data-disabled={limitReached || undefined}
        aria-disabled={limitReached}
        onClick={(event) => {
          if (limitReached) event.preventDefault();
          else addDialog.open();
        }}
        data-testid="add-channel"
      >
        {t("channels.add")}
      </Button>
    </Tooltip>
  );

  return (
    <>
      <PageHeader
        eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />}
        title={t("section.channels")}
        description={t("channels.description")}
        actions={!error && !isLoading && channels.length > 0 && manages ? addButton : undefined}
      />

      {isLoading ? (
        <Card padding="lg" role="status" aria-busy="true" aria-label={t("common.loading")}>
          <Group gap="md">
            <Skeleton circle height={40} />
            <Stack gap={8} style={{ flex: 1 }}>
              <Skeleton height={14} width="40%" />
              <Skeleton height={10} width="25%" />
            </Stack>
          </Group>
        </Card>
      ) : error ? (
        <LoadError message={t("channels.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />
      ) : channels.length === 0 ? (
        <Card padding="xl" style={{ borderStyle: "dashed" }} data-testid="channels-empty">
          <EmptyState
            py="xl"
            variant="light"
            icon={<IconMegaphone size={26} />}
            title={t("channels.emptyTitle")}
            description={t("channels.emptyText")}
          >
            <EmptyState.Actions>{addButton}</EmptyState.Actions>
          </EmptyState>
        </Card>
      ) : (
        <>
          <Stack gap="sm">
            {channels.map((channel) => (
              <ChannelCard key={channel.id} channel={channel} onDelete={manages ? () => setToDelete(channel) : undefined} />
            ))}
          </Stack>
          <Text size="sm" className={classes.note}>
            <IconInfo size={16} style={{ flex: "none", marginTop: 2 }} />
            {t(manages ? "channels.oneChannelNote" : "channels.ownerOnly")}
          </Text>
        </>
      )}

      <AddChannelDialog
        projectId={projectId}
        adminHandle={project.adminHandle}
        limitReached={limitReached}
        opened={addOpened}
        onClose={addDialog.close}
      />
      <ConfirmDialog
        opened={toDelete !== null}
        title={t("channels.deleteTitle")}
        message={t("channels.deleteText", { channel: lastToDelete.current?.link ?? "", project: project.name })}
        confirmLabel={t("common.delete")}
        busy={deleting}
        onConfirm={() => void handleDelete()}
        onClose={() => setToDelete(null)}
      />
    </>
  );
}

function ChannelCard({ channel, onDelete }: { channel: Channel; onDelete?: () => void }) {
  const t = useT();
  const { language } = useLanguage();
  const username = channelUsername(channel.link);
  const connected = channel.status === "connected";

  return (
    <Card padding="lg" data-testid="channel-card">
      <div className={classes.channel}>
        <PlatformMark platform={channel.type} size={40} />
        <div className={classes.body}>
          {username ? (
            <a href={`https://t.me/${username}`} target="_blank" rel="noreferrer" className={classes.link}>
              {channel.link}
              <IconExternalLink size={14} style={{ flex: "none", opacity: 0.5 }} />
            </a>
          ) : (
            <Text fw={600} style={{ overflowWrap: "anywhere" }}>
              {channel.link}
            </Text>
          )}
          <Text size="sm" c="dimmed" mt={2}>
            {PLATFORM_NAMES[channel.type]} · {t("channels.addedOn", { date: formatDate(channel.createdAt, language) })}
          </Text>
          {channel.approver && (
            <Text size="sm" mt={4} className={classes.approver} title={t("channels.approverVerified")} data-testid="channel-approver">
              <IconShield size={14} aria-hidden="true" style={{ flex: "none" }} />
              <span>
                {t("channels.approver")}: <b>@{channel.approver.handle}</b>
                {channel.approver.name ? ` · ${channel.approver.name}` : ""}
              </span>
            </Text>
          )}
          {channel.awaiting && (
            <Text
              size="sm"
              mt={4}
              className={classes.approver}
              title={t("channels.awaitingHint", { handle: channel.awaiting.handle, until: formatMoment(channel.awaiting.until, language) })}
              data-testid="channel-awaiting"
            >
              {/* the clock carries the colour; the words stay in the text colour, which is AA on any card */}
              <IconClock size={14} aria-hidden="true" style={{ flex: "none", color: "var(--mantine-color-orange-filled)" }} />
              <span>{t("channels.awaiting", { handle: channel.awaiting.handle })}</span>
            </Text>
          )}
        </div>
        <div className={classes.side}>
          {/* Spec §3: connected looks like a published post (green), anything else like a draft (grey). */}
          <Badge
            variant="light"
            color={connected ? "green" : "gray"}
            radius="sm"
            tt="none"
            size="lg"
            fw={600}
            leftSection={<span className={classes.dot} aria-hidden="true" />}
            data-testid="channel-status"
          >
            {connected ? t("channels.status.connected") : t("channels.status.pending")}
          </Badge>
          {onDelete && <Tooltip label={t("channels.delete")}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={t("channels.deleteLabel", { channel: channel.link })}
              onClick={onDelete}
              data-testid="delete-channel"
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>}
        </div>
      </div>
    </Card>
  );
}
