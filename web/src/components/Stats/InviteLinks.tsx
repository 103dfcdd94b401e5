import { useProjectRole } from "../../hooks/useProjectRole.ts";
import { Alert, Badge, Button, Card, Group, List, Table, Text, TextInput, Title } from "@mantine/core";
import "@mantine/core/styles/Alert.layer.css";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/List.layer.css";
import "@mantine/core/styles/Table.layer.css";
import { type FormEvent, useRef, useState } from "react";
import * as v from "valibot";
import { INVITE_LINK_NAME_MAX, type InviteLink, InviteLinkCreateSchema } from "../../../../contract/stats.ts";
import { createInviteLink, revokeInviteLink } from "../../api/stats.ts";
import { useFocusFallback } from "../../hooks/useFocusFallback.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { copyText } from "../../lib/clipboard.ts";
import { LOCALES } from "../../lib/formatDate.ts";
import { errorText, hasCode, serverMessage } from "../../lib/messages.ts";
import { formatInstant } from "../../lib/projectTime.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { ConfirmDialog } from "../ConfirmDialog/ConfirmDialog.tsx";
import { IconAlert, IconCopy, IconPlus } from "../Icons/Icons.tsx";
import { downloadCsv, toCsv } from "./csv.ts";
import classes from "./Stats.module.css";

type InviteLinksProps = {
  projectId: number;
  projectName: string;
  links: InviteLink[];
  /** The connected channel's link ("@name"); null while none is connected (no links can be made). */
  channel: string | null;
  timeZone: string;
};

/**
 * Named invite links, one per campaign or partner (docs/statistics.md): made and revoked by
 * the bot in Telegram, which needs the "Invite users via link" right. Without it the panel
 * says how to grant it; the rest of the page does not depend on it.
 */
export function InviteLinks({ projectId, projectName, links, channel, timeZone }: InviteLinksProps) {
  const t = useT();
  const { language } = useLanguage();
  const locale = LOCALES[language];
  const numbers = new Intl.NumberFormat(locale);
  // every member reads the links' figures; an owner or an editor makes and revokes them
  const manages = useProjectRole(projectId).can("invite_links.manage");
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [cannotInvite, setCannotInvite] = useState(false);
  const [toRevoke, setToRevoke] = useState<InviteLink | null>(null);
  const [revoking, setRevoking] = useState(false);
  const lastToRevoke = useRef<InviteLink | null>(null);
  if (toRevoke) lastToRevoke.current = toRevoke;
  const table = useRef<HTMLTableElement>(null);
  // the revoked row stays, so the focus goes back to it (its copy button), else to the form
  const openedFrom = useRef<HTMLElement | null>(null);
  useFocusFallback(toRevoke !== null, () =>
    openedFrom.current?.isConnected ? openedFrom.current : table.current?.querySelector<HTMLElement>("button"));

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = v.safeParse(InviteLinkCreateSchema, { name });
    if (!parsed.success) {
      setNameError(errorText(t, parsed.issues[0].message));
      return;
    }
    setNameError(null);
    setCreating(true);
    try {
      await createInviteLink(projectId, parsed.output.name);
      setName("");
      setCannotInvite(false);
      toastSuccess(t("statistics.linkCreated"));
    } catch (error) {
      if (hasCode(error, "stats.botCannotInvite")) setCannotInvite(true);
      else if (hasCode(error, "inviteLinks.nameRequired", "inviteLinks.nameTooLong")) setNameError(serverMessage(t, error) ?? null);
      else toastError(t("statistics.linkCreateFailed"), serverMessage(t, error));
    } finally {
      setCreating(false);
    }
  };

  const revoke = async () => {
    if (!toRevoke) return;
    setRevoking(true);
    try {
      await revokeInviteLink(projectId, toRevoke.id);
      toastSuccess(t("statistics.linkRevoked"));
      setToRevoke(null);
    } catch (error) {
      if (hasCode(error, "stats.botCannotInvite")) {
        setCannotInvite(true);
        setToRevoke(null);
      } else {
        toastError(t("statistics.revokeFailed"), serverMessage(t, error));
      }
    } finally {
      setRevoking(false);
    }
  };

  const copy = async (link: InviteLink) => {
    if (await copyText(link.url)) toastSuccess(t("statistics.copied"));
    else toastError(t("statistics.copyFailed"));
  };

  const exportCsv = () => {
    const csv = toCsv(
      [t("statistics.column.name"), "URL", t("statistics.joins"), t("statistics.leaves"), t("statistics.column.created"), t("statistics.column.state")],
      links.map((link) => [
        link.name,
        link.url,
        link.joins,
        link.leaves,
        formatInstant(link.createdAt, locale, timeZone),
        t(link.revoked ? "statistics.revoked" : "statistics.active"),
      ]),
    );
    downloadCsv(`${projectName} – ${t("statistics.links")}.csv`, csv);
  };

  return (
    <Card withBorder padding="lg" className={classes.panel} component="section" aria-labelledby="stats-links">
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <div>
          <Title order={2} size="h3" id="stats-links">{t("statistics.links")}</Title>
          <Text size="sm" c="dimmed">{t("statistics.linksHint")}</Text>
        </div>
        {links.length > 0 && (
          <Button variant="default" size="xs" onClick={exportCsv} data-testid="stats-links-csv">{t("statistics.exportCsv")}</Button>
        )}
      </Group>

      {channel === null ? (
        <Text size="sm" c="dimmed" mt="md" data-testid="stats-links-no-channel">{t("statistics.linksNoChannel")}</Text>
      ) : !manages ? null : (
        <form onSubmit={create} className={classes.linkForm} noValidate>
          <TextInput
            label={t("statistics.linkName")}
            placeholder={t("statistics.linkNamePlaceholder")}
            description={t("statistics.linkNameHint", { max: INVITE_LINK_NAME_MAX })}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              if (nameError) setNameError(null);
            }}
            error={nameError}
            maxLength={INVITE_LINK_NAME_MAX + 8}
            inputWrapperOrder={["label", "input", "description", "error"]}
            className={classes.linkName}
            data-testid="stats-link-name"
          />
          <Button type="submit" loading={creating} leftSection={<IconPlus size={16} />} data-testid="stats-link-create">
            {t("statistics.createLink")}
          </Button>
        </form>
      )}

      {cannotInvite && channel !== null && (
        <Alert
          variant="light"
          color="yellow"
          mt="md"
          icon={<IconAlert size={18} />}
          title={t("statistics.cannotInviteTitle")}
          withCloseButton
          closeButtonLabel={t("common.close")}
          onClose={() => setCannotInvite(false)}
          data-testid="stats-cannot-invite"
        >
          <Text size="sm">{t("statistics.cannotInviteText", { channel })}</Text>
          <List type="ordered" size="sm" mt="xs" spacing={4}>
            <List.Item>{t("statistics.cannotInviteStep1", { channel })}</List.Item>
            <List.Item>{t("statistics.cannotInviteStep2")}</List.Item>
            <List.Item>{t("statistics.cannotInviteStep3")}</List.Item>
          </List>
        </Alert>
      )}

      {links.length === 0 ? (
        channel !== null && <Text size="sm" c="dimmed" mt="md" data-testid="stats-links-empty">{t("statistics.noLinks")}</Text>
      ) : (
        <div className={classes.tableScroll}>
          <Table verticalSpacing="xs" mt="md" ref={table} data-testid="stats-links-table" className={classes.linksTable}>
            <caption className={classes.visuallyHidden}>{t("statistics.links")}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t("statistics.column.name")}</Table.Th>
                <Table.Th scope="col">{t("statistics.column.url")}</Table.Th>
                <Table.Th scope="col" className={classes.numeric}>{t("statistics.joins")}</Table.Th>
                <Table.Th scope="col" className={classes.numeric}>{t("statistics.leaves")}</Table.Th>
                <Table.Th scope="col">{t("statistics.column.created")}</Table.Th>
                <Table.Th scope="col">{t("statistics.column.state")}</Table.Th>
                <Table.Th scope="col"><span className={classes.visuallyHidden}>{t("statistics.column.actions")}</span></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {links.map((link) => (
                <Table.Tr key={link.id} data-testid="stats-link" data-link-id={link.id} data-revoked={link.revoked || undefined}>
                  <Table.Th scope="row" fw={600} className={classes.linkNameCell}>{link.name}</Table.Th>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm" className={classes.url} data-testid="stats-link-url" td={link.revoked ? "line-through" : undefined}>{link.url}</Text>
                      <Button
                        variant="subtle"
                        size="compact-sm"
                        px={6}
                        onClick={() => void copy(link)}
                        aria-label={t("statistics.copyLabel", { name: link.name })}
                        data-testid="stats-link-copy"
                      >
                        <IconCopy size={16} />
                      </Button>
                    </Group>
                  </Table.Td>
                  <Table.Td className={classes.numeric} data-testid="stats-link-joins">{numbers.format(link.joins)}</Table.Td>
                  <Table.Td className={classes.numeric} data-testid="stats-link-leaves">{numbers.format(link.leaves)}</Table.Td>
                  <Table.Td className={classes.nowrap}>
                    <time dateTime={link.createdAt}>{formatInstant(link.createdAt, locale, timeZone)}</time>
                  </Table.Td>
                  <Table.Td data-testid="stats-link-state" className={classes.nowrap}>
                    {link.revoked ? (
                      <Badge variant="light" color="gray" radius="sm" tt="none" fw={500} classNames={{ root: classes.stateBadge, label: classes.stateBadgeLabel }}>{t("statistics.revoked")}</Badge>
                    ) : (
                      <Badge variant="light" color="teal" radius="sm" tt="none" fw={500} classNames={{ root: classes.stateBadge, label: classes.stateBadgeLabel }}>{t("statistics.active")}</Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {!link.revoked && manages && (
                      <Button
                        variant="subtle"
                        color="red"
                        size="compact-sm"
                        onClick={(event) => {
                          openedFrom.current = event.currentTarget.closest("tr")?.querySelector<HTMLElement>("[data-testid=stats-link-copy]") ?? null;
                          setToRevoke(link);
                        }}
                        aria-label={t("statistics.revokeLabel", { name: link.name })}
                        aria-haspopup="dialog"
                        data-testid="stats-link-revoke"
                      >
                        {t("statistics.revoke")}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      {links.length > 0 && <Text className={classes.scrollHint} aria-hidden="true">{t("statistics.scrollHint")}</Text>}

      <ConfirmDialog
        opened={toRevoke !== null}
        title={t("statistics.revokeTitle")}
        message={t("statistics.revokeText", { name: (toRevoke ?? lastToRevoke.current)?.name ?? "" })}
        confirmLabel={t("statistics.revoke")}
        busy={revoking}
        onConfirm={() => void revoke()}
        onClose={() => setToRevoke(null)}
      />
    </Card>
  );
}
