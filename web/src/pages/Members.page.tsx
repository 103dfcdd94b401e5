import { ActionIcon, Badge, Button, Card, Group, NativeSelect, Skeleton, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import "@mantine/core/styles/Tooltip.layer.css";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router-dom";
import * as v from "valibot";
import { type Invitation, InvitationCreateSchema, type Member, type Role, ROLES } from "../../../contract/team.ts";
import { useUser } from "../api/auth.ts";
import { changeMemberRole, inviteMember, removeMember, useMembers, withdrawInvitation } from "../api/team.ts";
import { ApiRequestError } from "../api/fetcher.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog/ConfirmDialog.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconInfo, IconLogout, IconMail, IconTrash } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { SectionCard } from "../components/SectionCard/SectionCard.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { useProjectRole } from "../hooks/useProjectRole.ts";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { type TFunction, useLanguage, useT } from "../i18n/i18n.tsx";
import { formatDate } from "../lib/formatDate.ts";
import { errorText, failureText } from "../lib/messages.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { ROLE_LABEL_KEYS } from "../lib/roles.ts";
import { toastError, toastSuccess } from "../lib/toast.ts";

const roleOptions = (t: TFunction) => ROLES.map((role) => ({ value: role, label: t(ROLE_LABEL_KEYS[role]) }));

/** What waits for a "yes": removing a member, withdrawing an invitation, or leaving. */
type Pending = { kind: "remove"; member: Member } | { kind: "withdraw"; invitation: Invitation } | { kind: "leave" };

/**
 * A project's team (docs/teams.md): every member sees who is in it and who is invited; an
 * owner invites, changes roles, removes and withdraws; anyone may leave.
 */
export default function MembersPage() {
  const t = useT();
  usePageTitle(t("section.members"));
  const navigate = useNavigate();
  const { projectId, project, failed } = useRouteProject();
  const { can } = useProjectRole(projectId);
  const { user } = useUser();
  const { members, invitations, isLoading, error, mutate } = useMembers(projectId);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;
  const manage = can("members.manage");

  const confirm = async () => {
    if (!pending || !user) return;
    setBusy(true);
    try {
      if (pending.kind === "withdraw") {
        await withdrawInvitation(projectId, pending.invitation.id);
        toastSuccess(t("team.withdrawn", { email: pending.invitation.email }));
      } else if (pending.kind === "remove") {
        await removeMember(projectId, pending.member.userId, false);
        toastSuccess(t("team.removed", { email: pending.member.email }));
      } else {
        await removeMember(projectId, user.id, true);
        toastSuccess(t("team.left", { name: project.name }));
        navigate("/", { replace: true });
      }
      setPending(null);
    } catch (failure) {
      toastError(t("team.actionFailed"), failureText(t, failure, "common.tryAgainLater"));
    } finally {
      setBusy(false);
    }
  };

  const confirmation = (): { title: string; message: string; label: string } => {
    if (pending?.kind === "withdraw") {
      return { title: t("team.withdrawTitle"), message: t("team.withdrawText", { email: pending.invitation.email }), label: t("team.withdraw") };
    }
    if (pending?.kind === "remove") {
      return { title: t("team.removeTitle"), message: t("team.removeText", { email: pending.member.email }), label: t("team.remove") };
    }
    return { title: t("team.leaveTitle"), message: t("team.leaveText", { name: project.name }), label: t("team.leave") };
  };
  const { title, message, label } = confirmation();

  return (
    <>
      <PageHeader
        eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />}
        title={t("section.members")}
        description={t("team.description")}
        actions={
          <Button variant="default" leftSection={<IconLogout size={16} />} onClick={() => setPending({ kind: "leave" })} data-testid="leave-project">
            {t("team.leave")}
          </Button>
        }
      />
      <Stack gap="lg" maw={760}>
        {manage ? (
          <InviteForm projectId={projectId} />
        ) : (
          <Text size="sm" c="dimmed" style={{ display: "inline-flex", alignItems: "center", gap: 6 }} data-testid="members-owner-only">
            <IconInfo size={16} />
            {t("team.ownerOnly")}
          </Text>
        )}

        {isLoading ? (
          <Card padding="lg" role="status" aria-busy="true" aria-label={t("common.loading")}>
            <Stack gap="sm">
              <Skeleton height={18} width="60%" />
              <Skeleton height={18} width="45%" />
            </Stack>
          </Card>
        ) : error ? (
          <LoadError message={t("team.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />
        ) : (
          <>
            <Card padding={0} component="section" aria-labelledby="members-title" data-testid="members-list">
              <Text component="h2" fw={600} m={0} px="lg" pt="md" pb="xs" id="members-title">
                {t("team.membersTitle", { count: members.length })}
              </Text>
              {members.map((member) => (
                <MemberRow
                  key={member.userId}
                  projectId={projectId}
                  member={member}
                  isMe={member.userId === user?.id}
                  manage={manage}
                  onRemove={() => setPending({ kind: "remove", member })}
                />
              ))}
            </Card>

            <Card padding={0} component="section" aria-labelledby="invitations-title" data-testid="invitations-list">
              <Text component="h2" fw={600} m={0} px="lg" pt="md" pb="xs" id="invitations-title">
                {t("team.invitationsTitle")}
              </Text>
              {invitations.length === 0 ? (
                <Text size="sm" c="dimmed" px="lg" pb="md">
                  {t("team.noInvitations")}
                </Text>
              ) : (
                invitations.map((invitation) => (
                  <InvitationRow
                    key={invitation.id}
                    invitation={invitation}
                    manage={manage}
                    onWithdraw={() => setPending({ kind: "withdraw", invitation })}
                  />
                ))
              )}
            </Card>
          </>
        )}
      </Stack>

      <ConfirmDialog
        opened={pending !== null}
        title={title}
        message={message}
        confirmLabel={label}
        busy={busy}
        onConfirm={() => void confirm()}
        onClose={() => setPending(null)}
      />
    </>
  );
}

const rowStyle = { borderTop: "1px solid var(--pressa-hairline)" } as const;

function MemberRow({ projectId, member, isMe, manage, onRemove }: {
  projectId: number;
  member: Member;
  isMe: boolean;
  manage: boolean;
  onRemove: () => void;
}) {
  const t = useT();
  const { language } = useLanguage();
  const [saving, setSaving] = useState(false);

  const change = async (role: Role) => {
    setSaving(true);
    try {
      await changeMemberRole(projectId, member.userId, role);
      toastSuccess(t("team.roleChanged", { email: member.email, role: t(ROLE_LABEL_KEYS[role]) }));
    } catch (failure) {
      toastError(t("team.actionFailed"), failureText(t, failure, "common.tryAgainLater"));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Group px="lg" py="sm" gap="sm" wrap="wrap" style={rowStyle} data-testid="member-row" data-email={member.email}>
      <Stack gap={2} style={{ flex: "1 1 14rem", minWidth: 0 }}>
        <Text fw={500} style={{ overflowWrap: "anywhere" }}>
          {member.email}
          {isMe && (
            <Badge component="span" variant="light" color="gray" size="sm" ml={8} tt="none">
              {t("team.you")}
            </Badge>
          )}
        </Text>
        <Text size="xs" c="dimmed">
          {t("team.joined", { date: formatDate(member.joinedAt, language) })}
        </Text>
      </Stack>
      {manage ? (
        <NativeSelect
          aria-label={t("team.roleOf", { email: member.email })}
          data={roleOptions(t)}
          value={member.role}
          disabled={saving}
          onChange={(event) => void change(event.currentTarget.value as Role)}
          w={150}
          data-testid="member-role"
        />
      ) : (
        <Badge variant="light" tt="none" size="lg" radius="sm" fw={500} data-testid="member-role-badge">
          {t(ROLE_LABEL_KEYS[member.role])}
        </Badge>
      )}
      {manage && !isMe && (
        <Tooltip label={t("team.remove")}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t("team.removeLabel", { email: member.email })} onClick={onRemove} data-testid="remove-member">
            <IconTrash size={17} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

function InvitationRow({ invitation, manage, onWithdraw }: { invitation: Invitation; manage: boolean; onWithdraw: () => void }) {
  const t = useT();
  const { language } = useLanguage();
  return (
    <Group px="lg" py="sm" gap="sm" wrap="wrap" style={rowStyle} data-testid="invitation-row" data-email={invitation.email}>
      <Stack gap={2} style={{ flex: "1 1 14rem", minWidth: 0 }}>
        <Text fw={500} style={{ overflowWrap: "anywhere" }}>
          {invitation.email}
        </Text>
        <Text size="xs" c="dimmed">
          {t("team.expires", { date: formatDate(invitation.expiresAt, language) })}
        </Text>
      </Stack>
      <Badge variant="default" tt="none" size="lg" radius="sm" fw={500}>
        {t(ROLE_LABEL_KEYS[invitation.role])}
      </Badge>
      {manage && (
        <Button variant="subtle" color="gray" size="sm" onClick={onWithdraw} aria-label={t("team.withdrawLabel", { email: invitation.email })} data-testid="withdraw-invitation">
          {t("team.withdraw")}
        </Button>
      )}
    </Group>
  );
}

// The answers that are about the address, shown under it; the rest under the whole form.
const EMAIL_CODES = new Set(["team.emailInvalid", "team.alreadyMember", "team.addressBusy"]);

function InviteForm({ projectId }: { projectId: number }) {
  const t = useT();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const [errors, setErrors] = useState<{ email?: string; role?: string; form?: string }>({});
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = v.safeParse(InvitationCreateSchema, { email, role });
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const field = issue.path?.[0]?.key === "role" ? "role" : "email";
      setErrors({ [field]: errorText(t, issue.message) });
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const invitation = await inviteMember(projectId, parsed.output);
      setEmail("");
      toastSuccess(t("team.invited", { email: invitation.email }));
    } catch (failure) {
      const code = failure instanceof ApiRequestError ? failure.body?.code ?? "" : "";
      const words = failureText(t, failure, "common.tryAgainLater");
      setErrors(EMAIL_CODES.has(code) ? { email: words } : code === "team.roleInvalid" ? { role: words } : { form: words });
    } finally {
      setSending(false);
    }
  };

  return (
    <SectionCard title={t("team.inviteTitle")} hint={t("team.inviteHint")}>
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="invite-form">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t("team.email")}
            type="email"
            autoComplete="off"
            leftSection={<IconMail size={16} />}
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
            style={{ flex: "1 1 16rem" }}
            data-testid="invite-email"
          />
          <NativeSelect
            label={t("team.role")}
            data={roleOptions(t)}
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as Role)}
            error={errors.role}
            w={160}
            data-testid="invite-role"
          />
          <Button type="submit" loading={sending} mt={25} data-testid="invite-submit">
            {t("team.invite")}
          </Button>
        </Group>
        {errors.form && (
          <Text size="sm" c="var(--mantine-color-error)" mt="sm" role="alert" data-testid="invite-error">
            {errors.form}
          </Text>
        )}
        <Text size="xs" c="dimmed" mt="sm">
          {t("team.roleHint")}
        </Text>
      </form>
    </SectionCard>
  );
}
