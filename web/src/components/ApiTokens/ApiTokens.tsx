import { Anchor, Button, Card, Code, Group, Modal, NativeSelect, SegmentedControl, Stack, Table, Text, TextInput, VisuallyHidden } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/Code.layer.css";
import "@mantine/core/styles/Modal.layer.css";
import "@mantine/core/styles/SegmentedControl.layer.css";
import "@mantine/core/styles/Table.layer.css";
import "@mantine/core/styles/VisuallyHidden.layer.css";
import { type FormEvent, useId, useState } from "react";
import type { CreatedToken } from "../../../../contract/tokens.ts";
import { useProjects } from "../../api/projects.ts";
import { createApiToken, revokeApiToken, useApiTokens } from "../../api/tokens.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { formatMoment } from "../../lib/formatDate.ts";
import { failureText } from "../../lib/messages.ts";
import { toastError } from "../../lib/toast.ts";
import { IconCheck, IconCopy, IconTrash } from "../Icons/Icons.tsx";
import { LoadError } from "../LoadError/LoadError.tsx";

/**
 * The account's API tokens (docs/api.md): make one for a project or all, to read or to read
 * and write; it is shown once, with a copy button and a curl line to try it; the list shows
 * each token's last use, and revoking is immediate.
 */
export function ApiTokens() {
  const t = useT();
  const { language } = useLanguage();
  const titleId = useId();
  const { tokens, error, refresh } = useApiTokens();
  const { projects } = useProjects();
  const [name, setName] = useState("");
  const [projectId, setProjectId] = useState("");
  const [scope, setScope] = useState<"read" | "write">("read");
  const [saving, setSaving] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [made, setMade] = useState<CreatedToken | null>(null);
  const [copied, setCopied] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === "") return setNameError(t("tokens.nameRequired"));
    setSaving(true);
    try {
      const token = await createApiToken({
        name: name.trim(),
        projectId: projectId === "" ? null : Number(projectId),
        scopes: scope === "read" ? ["read"] : ["read", "write"],
      });
      setMade(token);
      setCopied(false);
      setName("");
      setNameError(null);
    } catch (failure) {
      toastError(t("settings.tokens.createFailed"), failureText(t, failure, "common.tryAgainLater"));
    } finally {
      setSaving(false);
    }
  };
  const revoke = async (id: number) => {
    try {
      await revokeApiToken(id);
    } catch (failure) {
      toastError(t("settings.tokens.revokeFailed"), failureText(t, failure, "common.tryAgainLater"));
    }
  };
  const copy = async () => {
    if (!made) return;
    await navigator.clipboard?.writeText(made.token).catch(() => {});
    setCopied(true);
  };
  const projectName = (id: number | null) => id === null ? t("settings.tokens.allProjects") : projects.find((p) => p.id === id)?.name ?? `#${id}`;

  return (
    <Card component="section" padding="lg" aria-labelledby={titleId} data-testid="api-tokens">
      <Text component="h2" fw={600} m={0} id={titleId}>{t("settings.tokens.title")}</Text>
      <Text size="sm" c="dimmed" mt={4}>
        {t("settings.tokens.hint")} <Anchor href="/api-docs" data-testid="api-docs-link" c="var(--mantine-color-text)" underline="always">
          {t("apiDocs.title")}
        </Anchor>
      </Text>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Group align="flex-end" mt="md" gap="sm" wrap="wrap">
          <TextInput label={t("settings.tokens.name")} value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError}
            maxLength={100} data-testid="token-name" style={{ flex: "1 1 12rem" }} />
          <NativeSelect label={t("settings.tokens.project")} value={projectId} onChange={(e) => setProjectId(e.currentTarget.value)}
            data={[{ value: "", label: t("settings.tokens.allProjects") }, ...projects.map((p) => ({ value: String(p.id), label: p.name }))]}
            data-testid="token-project" style={{ flex: "1 1 12rem" }} />
          <Stack gap={4}>
            <Text size="sm" fw={500} component="span">{t("settings.tokens.scope")}</Text>
            <SegmentedControl value={scope} onChange={(value) => setScope(value as "read" | "write")} data-testid="token-scope"
              data={[{ value: "read", label: t("settings.tokens.read") }, { value: "write", label: t("settings.tokens.readWrite") }]} />
          </Stack>
          <Button type="submit" loading={saving} data-testid="token-create">{t("settings.tokens.create")}</Button>
        </Group>
      </form>
      {error ? (
        <LoadError message={t("settings.tokens.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void refresh()} />
      ) : tokens.length === 0 ? (
        <Text size="sm" c="dimmed" mt="md">{t("settings.tokens.none")}</Text>
      ) : (
        <Table.ScrollContainer minWidth={520} mt="md">
          <Table data-testid="token-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("settings.tokens.name")}</Table.Th>
                <Table.Th>{t("settings.tokens.project")}</Table.Th>
                <Table.Th>{t("settings.tokens.scope")}</Table.Th>
                <Table.Th>{t("settings.tokens.lastUsed")}</Table.Th>
                <Table.Th><VisuallyHidden>{t("settings.tokens.revoke")}</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>{token.name}</Table.Td>
                  <Table.Td>{projectName(token.projectId)}</Table.Td>
                  <Table.Td>{token.scopes.includes("write") ? t("settings.tokens.readWrite") : t("settings.tokens.read")}</Table.Td>
                  <Table.Td>{token.lastUsedAt ? formatMoment(token.lastUsedAt, language) : t("settings.tokens.never")}</Table.Td>
                  <Table.Td>
                    <Button variant="subtle" color="red" size="xs" leftSection={<IconTrash size={14} />} onClick={() => void revoke(token.id)}
                      aria-label={t("settings.tokens.revokeNamed", { name: token.name })}>
                      {t("settings.tokens.revoke")}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={made !== null} onClose={() => setMade(null)} title={t("settings.tokens.madeTitle")} size="lg">
        {made && (
          <Stack gap="sm">
            <Text size="sm">{t("settings.tokens.madeHint")}</Text>
            <Group gap="xs" wrap="nowrap">
              <Code block style={{ flex: 1, overflowWrap: "anywhere" }} data-testid="token-value">{made.token}</Code>
              <Button variant="default" onClick={() => void copy()} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}>
                {copied ? t("settings.tokens.copied") : t("settings.tokens.copy")}
              </Button>
            </Group>
            <Text size="sm" fw={500}>{t("settings.tokens.tryIt")}</Text>
            <Code block style={{ overflowWrap: "anywhere", whiteSpace: "pre-wrap" }}>
              {`curl -H "Authorization: Bearer ${made.token}" ${location.origin}/api/projects`}
            </Code>
            <Button onClick={() => setMade(null)} mt="xs">{t("settings.tokens.done")}</Button>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}
