import { Text } from "@mantine/core";
import { useT } from "../../i18n/i18n.tsx";
import { projectPath } from "../../lib/projectSections.ts";
import { Banner } from "../Banner/Banner.tsx";
import { IconMegaphone } from "../Icons/Icons.tsx";

/**
 * Above the calendar while the project has no channel (spec §2 Schedule links the channels
 * page): planning works, and posts wait for the channel before going to approval.
 */
export function NoChannelBanner({ projectId }: { projectId: number }) {
  const t = useT();
  return (
    <Banner
      tone="info"
      icon={IconMegaphone}
      title={t("schedule.noChannelTitle")}
      action={{ label: t("schedule.goToChannels"), to: projectPath(projectId, "channels"), testId: "go-to-channels" }}
      testId="schedule-no-channel"
    >
      {/* the page's text colour: dimmed grey is under AA on the brand tint */}
      <Text size="sm">{t("schedule.noChannelText")}</Text>
    </Banner>
  );
}
