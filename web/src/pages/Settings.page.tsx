import { type MantineColorScheme, NativeSelect, SegmentedControl, Stack, Text, useMantineColorScheme } from "@mantine/core";
import "@mantine/core/styles/FloatingIndicator.layer.css";
import "@mantine/core/styles/SegmentedControl.layer.css";
import { useEffect } from "react";
import { LANGUAGES } from "../../../contract/limits.ts";
import { NotificationSettings } from "../components/NotificationSettings/NotificationSettings.tsx";
import { ApiTokens } from "../components/ApiTokens/ApiTokens.tsx";
import { DeleteAccount } from "../components/DeleteAccount/DeleteAccount.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { SectionCard } from "../components/SectionCard/SectionCard.tsx";
import { ProjectTeams } from "../components/ProjectTeams/ProjectTeams.tsx";
import { IconGlobe } from "../components/Icons/Icons.tsx";
import { loadDictionary, useLanguage, useT, type Language } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

export default function SettingsPage() {
  const t = useT();
  const { language, setLanguage } = useLanguage();
  // "auto" follows the system (prefers-color-scheme); the choice is kept in this browser.
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  usePageTitle(t("settings.title"));

  // Each language's dictionary is fetched on first use; fetched ahead here, a switch is instant.
  useEffect(() => {
    for (const code of LANGUAGES) loadDictionary(code).catch(() => {});
  }, []);

  return (
    <>
      <PageHeader title={t("settings.title")} description={t("settings.description")} />
      <Stack gap="lg" maw={560}>
        <SectionCard title={t("settings.interface")} hint={t("settings.interfaceHint")}>
          <NativeSelect
            label={t("settings.language")}
            leftSection={<IconGlobe size={16} />}
            data={[
              { value: "ru", label: t("language.ru") },
              { value: "en", label: t("language.en") },
            ]}
            value={language}
            onChange={(event) => {
              const next = event.currentTarget.value;
              if ((LANGUAGES as readonly string[]).includes(next)) setLanguage(next as Language);
            }}
            data-testid="language-select"
          />
          <Text size="sm" fw="var(--mantine-font-weight-medium)" mt="lg" mb={4} id="theme-label">
            {t("settings.theme")}
          </Text>
          <SegmentedControl
            value={colorScheme}
            onChange={(value) => setColorScheme(value as MantineColorScheme)}
            data={[
              { value: "auto", label: t("settings.theme.auto") },
              { value: "light", label: t("settings.theme.light") },
              { value: "dark", label: t("settings.theme.dark") },
            ]}
            fullWidth
            aria-labelledby="theme-label"
            data-testid="theme-switch"
          />
          <Text size="xs" c="dimmed" mt={6}>
            {t("settings.themeHint")}
          </Text>
        </SectionCard>
        <NotificationSettings />
        <ProjectTeams />
        <ApiTokens />
        <DeleteAccount />
      </Stack>
    </>
  );
}
