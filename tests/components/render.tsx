/**
 * Renders one piece of the SPA in happy-dom, inside what the app wraps every screen in
 * (Mantine's theme, a router, the interface language), so a test reads what a person sees.
 */
import { MantineProvider } from "@mantine/core";
import { cleanup, render } from "@testing-library/react";
import { type ReactNode, useEffect } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach } from "vitest";
import { I18nProvider, type Language, loadDictionary, useLanguage } from "../../web/src/i18n/i18n.tsx";
import { theme } from "../../web/src/theme.ts";

afterEach(cleanup);

function InLanguage({ language, children }: { language: Language; children: ReactNode }) {
  const { language: shown, setLanguage } = useLanguage();
  useEffect(() => setLanguage(language), [language, setLanguage]);
  return shown === language ? children : null;
}

/**
 * Renders `ui` in `language`; the returned queries find it once that language shows. `at`:
 * the address the router starts at, for a page that reads its route's parameters.
 */
export async function renderIn(language: Language, ui: ReactNode, at = "/") {
  await loadDictionary(language);
  return render(
    <MantineProvider theme={theme}>
      <MemoryRouter initialEntries={[at]}>
        <I18nProvider>
          <InLanguage language={language}>{ui}</InLanguage>
        </I18nProvider>
      </MemoryRouter>
    </MantineProvider>,
  );
}

export const LANGUAGES_SHOWN: Language[] = ["ru", "en"];
