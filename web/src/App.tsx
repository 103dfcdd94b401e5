import { MantineProvider } from "@mantine/core";
import { BrowserRouter } from "react-router-dom";
import { SWRConfig } from "swr";
import { swrConfig } from "./api/swrConfig.ts";
import { BugReportButton } from "./components/BugReportButton/BugReportButton.tsx";
import { Toaster } from "./components/Toaster/Toaster.tsx";
import { I18nProvider } from "./i18n/i18n.tsx";
import { AppRoutes } from "./routes.tsx";
import { theme } from "./theme.ts";

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <I18nProvider>
        <SWRConfig value={swrConfig}>
          <BrowserRouter>
            <AppRoutes />
            <BugReportButton />
          </BrowserRouter>
          <Toaster />
        </SWRConfig>
      </I18nProvider>
    </MantineProvider>
  );
}
