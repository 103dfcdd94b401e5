import { MantineProvider } from "@mantine/core";
import { lazy, Suspense } from "react";
import { BrowserRouter, useLocation } from "react-router-dom";
import { SWRConfig } from "swr";
import { startSessionCheck, useUser } from "./api/auth.ts";
import { swrConfig } from "./api/swrConfig.ts";
import { Toaster } from "./components/Toaster/Toaster.tsx";
import { I18nProvider } from "./i18n/i18n.tsx";
import { colorSchemeManager } from "./lib/colorScheme.ts";
import { AppRoutes } from "./routes.tsx";
import { cssVariablesResolver, theme } from "./theme.ts";

startSessionCheck();

// Its own chunk (with the icons), loaded only for a signed-in person.
const BugReportButton = lazy(() => import("./components/BugReportButton/BugReportButton.tsx"));

/**
 * Spec §2: the floating bug-report button on every page but /auth. Reports need a session,
 * so a signed-out visitor (who only sees /auth and the 404 page) does not get it.
 */
function BugReportSlot() {
  const { pathname } = useLocation();
  const { user } = useUser();
  if (!user || pathname.replace(/\/+$/, "") === "/auth") return null;
  return (
    <Suspense fallback={null}>
      <BugReportButton />
    </Suspense>
  );
}

export function App() {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      <I18nProvider>
        <SWRConfig value={swrConfig}>
          <BrowserRouter>
            <AppRoutes />
            <BugReportSlot />
          </BrowserRouter>
          <Toaster />
        </SWRConfig>
      </I18nProvider>
    </MantineProvider>
  );
}
