import { Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { logout, useUser } from "../api/auth.ts";
import { acceptInvitation } from "../api/team.ts";
import { IconAlert, IconArrowLeft, IconLogout, IconUsers } from "../components/Icons/Icons.tsx";
import { useT } from "../i18n/i18n.tsx";
import { failureText, hasCode } from "../lib/messages.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { ROLE_LABEL_KEYS } from "../lib/roles.ts";
import { toastError, toastSuccess } from "../lib/toast.ts";

type Refusal = "gone" | "anotherEmail";

/**
 * The link of an invitation mail (docs/teams.md). A signed-out visitor signs in first and is
 * brought back here (components/AuthGate); accepting opens the project.
 */
export default function InvitePage() {
  const t = useT();
  usePageTitle(t("invite.title"));
  const token = useParams().token ?? "";
  const navigate = useNavigate();
  const { user } = useUser();
  const [accepting, setAccepting] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const accept = async () => {
    setAccepting(true);
    try {
      const { projectId, role } = await acceptInvitation(token);
      toastSuccess(t("invite.joined", { role: t(ROLE_LABEL_KEYS[role]) }));
      navigate(projectPath(projectId), { replace: true });
    } catch (failure) {
      if (hasCode(failure, "team.invitationGone")) setRefusal("gone");
      else if (hasCode(failure, "team.invitationForAnotherEmail")) setRefusal("anotherEmail");
      else toastError(t("invite.failed"), failureText(t, failure, "common.tryAgainLater"));
      setAccepting(false);
    }
  };

  const signOut = async () => {
    try {
      // signed out, the route guard takes the page to sign-in and back here after it
      await logout();
    } catch (failure) {
      toastError(t("auth.logoutFailed"), failureText(t, failure, "common.tryAgainLater"));
    }
  };

  const dashboard = (
    <Button component={Link} to="/" variant="default" leftSection={<IconArrowLeft size={16} />}>
      {t("common.backToDashboard")}
    </Button>
  );

  return (
    <Card padding="xl" maw={520} mx="auto" mt="xl" data-testid="invite-card">
      <Stack gap="sm" align="flex-start">
        <Text c={refusal ? "var(--mantine-color-error)" : "var(--mantine-color-brand-6)"} style={{ display: "inline-flex" }}>
          {refusal ? <IconAlert size={28} /> : <IconUsers size={28} />}
        </Text>
        {refusal === "gone" ? (
          <div role="alert" data-testid="invite-gone">
            <Title order={1} fz="h2">{t("invite.goneTitle")}</Title>
            <Text c="dimmed" mt={4}>{t("invite.goneText")}</Text>
          </div>
        ) : refusal === "anotherEmail" ? (
          <div role="alert" data-testid="invite-another-email">
            <Title order={1} fz="h2">{t("invite.anotherEmailTitle")}</Title>
            <Text c="dimmed" mt={4} style={{ overflowWrap: "anywhere" }}>
              {t("invite.anotherEmailText", { email: user?.email ?? "" })}
            </Text>
          </div>
        ) : (
          <div>
            <Title order={1} fz="h2">{t("invite.title")}</Title>
            <Text c="dimmed" mt={4} style={{ overflowWrap: "anywhere" }}>
              {t("invite.text", { email: user?.email ?? "" })}
            </Text>
          </div>
        )}
        <Group gap="sm" mt="sm" wrap="wrap">
          {refusal === null && (
            <Button onClick={() => void accept()} loading={accepting} data-testid="accept-invitation">
              {t("invite.accept")}
            </Button>
          )}
          {refusal === "anotherEmail" && (
            <Button leftSection={<IconLogout size={16} />} onClick={() => void signOut()} data-testid="invite-sign-out">
              {t("invite.signOut")}
            </Button>
          )}
          {dashboard}
        </Group>
      </Stack>
    </Card>
  );
}
