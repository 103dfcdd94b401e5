import type { TranslationKey } from "../i18n/i18n.tsx";
import { IconCalendar, IconChartBar, IconReceipt, IconClock, IconFileText, IconMegaphone, IconSend, IconSparkles, IconUsers, IconLink } from "../components/Icons/Icons.tsx";
import { PROJECT_SECTION_PATHS, type ProjectSectionPath } from "./projectPaths.ts";

export { projectPath, type ProjectSectionPath } from "./projectPaths.ts";

// Titles and icons of the project areas; the paths alone live in projectPaths.ts for the routes.
const SECTION_DETAILS = {
  "ai-assistant": {
    titleKey: "section.aiAssistant",
    descriptionKey: "section.aiAssistant.description",
    Icon: IconSparkles,
  },
  channels: {
    titleKey: "section.channels",
    descriptionKey: "section.channels.description",
    Icon: IconMegaphone,
  },
  schedule: {
    titleKey: "section.schedule",
    descriptionKey: "section.schedule.description",
    Icon: IconCalendar,
  },
  drafts: {
    titleKey: "section.drafts",
    descriptionKey: "section.drafts.description",
    Icon: IconFileText,
  },
  published: {
    titleKey: "section.published",
    descriptionKey: "section.published.description",
    Icon: IconSend,
  },
  statistics: {
    titleKey: "section.statistics",
    descriptionKey: "section.statistics.description",
    Icon: IconChartBar,
  },
  ads: {
    titleKey: "section.ads",
    descriptionKey: "section.ads.description",
    Icon: IconReceipt,
  },
  members: {
    titleKey: "section.members",
    descriptionKey: "section.members.description",
    Icon: IconUsers,
  },
  activity: {
    titleKey: "section.activity",
    descriptionKey: "section.activity.description",
    Icon: IconClock,
  },
  webhooks: {
    titleKey: "section.webhooks",
    descriptionKey: "section.webhooks.description",
    Icon: IconLink,
  },
} as const satisfies Record<
  ProjectSectionPath,
  { titleKey: TranslationKey; descriptionKey: TranslationKey; Icon: unknown }
>;

/** The areas of a project (spec §2, and Statistics), in the order the sidebar and overview show them. */
export const PROJECT_SECTIONS = PROJECT_SECTION_PATHS.map((path) => ({ path, ...SECTION_DETAILS[path] }));

export type ProjectSection = (typeof PROJECT_SECTIONS)[number];
