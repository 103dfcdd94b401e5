import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { lazy, type ReactNode } from "react";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { useUser } from "../../api/auth.ts";
import { useT } from "../../i18n/i18n.tsx";
import { FullPageLoader } from "../FullPageLoader/FullPageLoader.tsx";

/**
 * Where sign-in leads back to: an invitation's link (docs/teams.md), which a signed-out
 * invitee opens from the mail. Any other page starts from the dashboard, as before.
 */
type ReturnState = { returnTo?: string } | null;
const returnPath = (state: unknown) => {
  const path = (state as ReturnState)?.returnTo;
  return typeof path === "string" && /^\/invite\/[A-Za-z0-9_-]+$/.test(path) ? path : undefined;
};

/** Protected pages: spinner while the session loads, /auth when nobody is signed in. */
export function RequireAuth() {
  const { user, isLoading, error, mutate } = useUser();
  const { pathname } = useLocation();

  if (isLoading) return <FullPageLoader />;
  if (error) return <SessionUnavailable onRetry={() => void mutate()} />;
  if (!user) return <Navigate to="/auth" replace state={returnPath({ returnTo: pathname }) ? { returnTo: pathname } : null} />;
  return <Outlet />;
}

const ForbiddenPage = lazy(() => import("../../pages/Forbidden.page.tsx"));

/** Admin screens: anyone else is told plainly that they are for admins (the API refuses them too). */
export function RequireAdmin() {
  const { user } = useUser();
  return user?.isAdmin ? <Outlet /> : <ForbiddenPage />;
}

/**
 * /auth: a signed-in user goes to the dashboard instead, which is also what happens the
 * moment sign-in succeeds.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { user, isLoading } = useUser();
  const { state } = useLocation();
  if (isLoading) return <FullPageLoader />;
  if (user) return <Navigate to={returnPath(state) ?? "/"} replace />;
  return children;
}

/** The session check failed for another reason than "signed out" (server down, network). */
function SessionUnavailable({ onRetry }: { onRetry: () => void }) {
  const t = useT();
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="xs" maw={360} ta="center">
        <Title order={2}>{t("session.unavailableTitle")}</Title>
        <Text c="dimmed">{t("session.unavailableText")}</Text>
        <Button mt="sm" onClick={onRetry}>
          {t("common.retry")}
        </Button>
      </Stack>
    </Center>
  );
}
