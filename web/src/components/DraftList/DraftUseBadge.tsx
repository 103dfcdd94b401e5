import { Anchor } from "@mantine/core";
import { Link } from "react-router-dom";
import type { DraftHolder } from "../../../../contract/drafts.ts";
import { useT } from "../../i18n/i18n.tsx";
import { draftUse, postDetailsPath } from "../../lib/draftHolder.ts";
import classes from "./DraftList.module.css";

/** Whether a draft is free, or what holds it (or takes it next), linking to that post's details. */
export function DraftUseBadge({ projectId, holder }: { projectId: number; holder: DraftHolder }) {
  const t = useT();
  const use = draftUse(holder);
  if (use.kind === "free") {
    return (
      <span className={classes.use} data-use="free" data-testid="draft-use">
        {t("drafts.use.free")}
      </span>
    );
  }
  return (
    <Anchor
      component={Link}
      to={postDetailsPath(projectId, use.postId)}
      className={classes.use}
      data-use={use.kind}
      data-testid="draft-use"
      onClick={(event) => event.stopPropagation()}
    >
      {t(`drafts.use.${use.kind}`)}
    </Anchor>
  );
}
