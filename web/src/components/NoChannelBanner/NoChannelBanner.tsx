import { Anchor, Text } from "@mantine/core";
import { Link } from "react-router-dom";
import { useT } from "../../i18n/i18n.tsx";
import { projectPath } from "../../lib/projectSections.ts";
import { IconMegaphone } from "../Icons/Icons.tsx";
import classes from "./NoChannelBanner.module.css";

/**
 * Above the calendar while the project has no channel (spec §2 Schedule links the channels
 * page): planning works, and posts wait for the channel before going to approval.
 */
export function NoChannelBanner({ projectId }: { projectId: number }) {
  const t = useT();
  return (
    <div className={classes.banner} role="status" data-testid="schedule-no-channel">
      <IconMegaphone size={18} className={classes.icon} />
      <div className={classes.body}>
        <Text size="sm" fw={600}>
          {t("schedule.noChannelTitle")}
        </Text>
        {/* the page's text colour: dimmed grey is under AA on the brand tint */}
        <Text size="sm">
          {t("schedule.noChannelText")}
        </Text>
      </div>
      <Anchor component={Link} to={projectPath(projectId, "channels")} size="sm" fw={500} className={classes.action} data-testid="go-to-channels">
        {t("schedule.goToChannels")}
      </Anchor>
    </div>
  );
}
