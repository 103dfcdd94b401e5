import type { TranslationKey } from "../i18n/i18n.tsx";
import { IconCalendar, IconFileText, IconMegaphone, IconSend, IconSparkles } from "../components/Icons/Icons.tsx";

/** The five areas of a project (spec §2), in the order the sidebar and overview show them. */
export const PROJECT_SECTIONS = [
  {
    path: "ai-assistant",
    titleKey: "section.aiAssistant",
    descriptionKey: "section.aiAssistant.description",
    Icon: IconSparkles,
  },
  {
    path: "channels",
    titleKey: "section.channels",
    descriptionKey: "section.channels.description",
    Icon: IconMegaphone,
  },
  {
    path: "schedule",
    titleKey: "section.schedule",
    descriptionKey: "section.schedule.description",
    Icon: IconCalendar,
  },
  {
    path: "drafts",
    titleKey: "section.drafts",
    descriptionKey: "section.drafts.description",
    Icon: IconFileText,
  },
  {
    path: "published",
    titleKey: "section.published",
    descriptionKey: "section.published.description",
    Icon: IconSend,
  },
] as const satisfies ReadonlyArray<{
  path: string;
  titleKey: TranslationKey;
  descriptionKey: TranslationKey;
  Icon: unknown;
}>;

export type ProjectSection = (typeof PROJECT_SECTIONS)[number];
export type ProjectSectionPath = ProjectSection["path"];

export const projectPath = (projectId: number, section?: ProjectSectionPath) =>
  section ? `/project/${projectId}/${section}` : `/project/${projectId}`;
