import { Badge, Button, Checkbox, Code, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Checkbox.layer.css";
import "@mantine/core/styles/Code.layer.css";
import "@mantine/core/styles/Modal.layer.css";
import "@mantine/core/styles/Table.layer.css";
import { type FormEvent, useState } from "react";
import { type CreatedWebhook, WEBHOOK_EVENTS, type WebhookEvent } from "../../../contract/webhooks.ts";
import { createWebhook, deleteWebhook, redeliver, useDeliveries, useWebhooks } from "../api/webhooks.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconRefresh, IconTrash } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { SectionCard } from "../components/SectionCard/SectionCard.tsx";
import { useProjectRole } from "../hooks/useProjectRole.ts";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { useLanguage, useT } from "../i18n/i18n.tsx";
import { formatMoment } from "../lib/formatDate.ts";
import { failureText } from "../lib/messages.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { toastError } from "../lib/toast.ts";

const STATUS_COLOR = { pending: "yellow", delivered: "green", failed: "red" } as const;

/** One endpoint's delivery log: each event's status, tries and last answer, and Redeliver for those who manage webhooks. */
function DeliveryLog({ projectId, webhookId, manage }: { projectId: number; webhookId: number; manage: boolean }) {
  const t = useT();
  const { language } = useLanguage();
  const { deliveries, error } = useDeliveries(projectId, webhookId);
  if (error) return <Text size="sm" c="red">{t("webhooks.logFailed")}</Text>;
  if (deliveries.length === 0) return <Text size="sm" c="dimmed">{t("webhooks.noDeliveries")}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table data-testid="webhook-deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("webhooks.event")}</Table.Th>
            <Table.Th>{t("webhooks.status")}</Table.Th>
            <Table.Th>{t("webhooks.attempts")}</Table.Th>
            <Table.Th>{t("webhooks.lastAnswer")}</Table.Th>
            <Table.Th>{t("webhooks.when")}</Table.Th>
            {manage && <Table.Th />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td><Code>{d.eventType}</Code></Table.Td>
              <Table.Td><Badge color={STATUS_COLOR[d.status]} variant="light">{t(`webhooks.status.${d.status}`)}</Badge></Table.Td>
              <Table.Td>{d.attempts}</Table.Td>
              <Table.Td>{d.lastStatus ?? "—"}</Table.Td>
              <Table.Td>{formatMoment(d.createdAt, language)}</Table.Td>
              {manage && (
                <Table.Td>
                  <Button size="xs" variant="subtle" leftSection={<IconRefresh size={14} />} data-testid="webhook-redeliver"
                    onClick={() => void redeliver(projectId, webhookId, d.id).catch((f) => toastError(t("webhooks.redeliverFailed"), failureText(t, f, "common.tryAgainLater")))}>
                    {t("webhooks.redeliver")}
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * A project's webhooks (docs/api.md "Webhooks"): owners and editors add an endpoint with the
 * events it wants (its signing secret shown once), read each endpoint's delivery log, send a
 * delivery again and remove an endpoint. Every other member reads the endpoints (where each
 * goes, not its whole URL, which may be a secret) and their logs, and is told who manages them.
 */
export default function WebhooksPage() {
  const t = useT();
  usePageTitle(t("section.webhooks"));
  const { projectId, project, failed } = useRouteProject();
  const { can, role } = useProjectRole(projectId);
  const manage = can("webhooks.manage");
  const { webhooks, error, refresh } = useWebhooks(projectId, role !== undefined);
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>(["post.published"]);
  const [saving, setSaving] = useState(false);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [made, setMade] = useState<CreatedWebhook | null>(null);
  const [open, setOpen] = useState<number | null>(null);

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      setMade(await createWebhook(projectId, { url: url.trim(), events }));
      setUrl("");
      setUrlError(null);
    } catch (failure) {
      setUrlError(failureText(t, failure, "common.tryAgainLater"));
    } finally {
      setSaving(false);
    }
  };
  const remove = async (id: number) => {
    try {
      await deleteWebhook(projectId, id);
    } catch (failure) {
      toastError(t("webhooks.deleteFailed"), failureText(t, failure, "common.tryAgainLater"));
    }
  };
  const toggle = (name: WebhookEvent, on: boolean) => setEvents((list) => on ? [...list, name] : list.filter((e) => e !== name));

  return (
    <>
      <PageHeader eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />} title={t("section.webhooks")} description={t("webhooks.description")} />
      <Stack gap="lg">
        {!manage && role !== undefined && <Text c="dimmed" data-testid="webhooks-readonly">{t("webhooks.managersOnly")}</Text>}
        {manage && (
          <SectionCard title={t("webhooks.addTitle")} hint={t("webhooks.addHint")} testId="webhook-add">
            <form onSubmit={(e) => void submit(e)} noValidate>
              <Stack gap="sm">
                <TextInput label={t("webhooks.url")} placeholder="https://example.com/pressa" value={url} onChange={(e) => setUrl(e.currentTarget.value)}
                  error={urlError} data-testid="webhook-url" />
                <Checkbox.Group label={t("webhooks.events")} value={events}>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} mt={6}>
                    {WEBHOOK_EVENTS.map((name) => (
                      <Checkbox key={name} value={name} label={<Code>{name}</Code>} checked={events.includes(name)}
                        onChange={(e) => toggle(name, e.currentTarget.checked)} />
                    ))}
                  </SimpleGrid>
                </Checkbox.Group>
                <Group><Button type="submit" loading={saving} disabled={events.length === 0} data-testid="webhook-create">{t("webhooks.add")}</Button></Group>
              </Stack>
            </form>
          </SectionCard>
        )}
        {error ? (
          <LoadError message={t("webhooks.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void refresh()} />
        ) : webhooks.length === 0 && !manage ? (
          <Text c="dimmed" data-testid="webhooks-none">{t("webhooks.none")}</Text>
        ) : (
          webhooks.map((hook) => (
            <SectionCard key={hook.id} title={<span style={{ overflowWrap: "anywhere" }}>{hook.url}</span>}
              hint={hook.disabledAt ? t("webhooks.disabled") : hook.events.join(", ")} testId="webhook">
              <Group gap="xs" mb="sm">
                <Button size="xs" variant="default" onClick={() => setOpen(open === hook.id ? null : hook.id)} data-testid="webhook-log-toggle">
                  {open === hook.id ? t("webhooks.hideLog") : t("webhooks.showLog")}
                </Button>
                {manage && (
                  <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={() => void remove(hook.id)}>
                    {t("webhooks.delete")}
                  </Button>
                )}
              </Group>
              {open === hook.id && <DeliveryLog projectId={projectId} webhookId={hook.id} manage={manage} />}
            </SectionCard>
          ))
        )}
      </Stack>
      <Modal opened={made !== null} onClose={() => setMade(null)} title={t("webhooks.madeTitle")} size="lg">
        {made && (
          <Stack gap="sm">
            <Text size="sm">{t("webhooks.madeHint")}</Text>
            <Code block style={{ overflowWrap: "anywhere" }} data-testid="webhook-secret">{made.secret}</Code>
            <Button onClick={() => setMade(null)}>{t("settings.tokens.done")}</Button>
          </Stack>
        )}
      </Modal>
    </>
  );
}
