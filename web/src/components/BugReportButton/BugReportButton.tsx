import { lazy, Suspense, useState } from "react";
import { useT } from "../../i18n/i18n.tsx";
import { IconBug } from "../Icons/Icons.tsx";
import classes from "./BugReportButton.module.css";

// The dialog loads when it is about to be used.
const loadDialog = () => import("../BugReportDialog/BugReportDialog.tsx");
const BugReportDialog = lazy(loadDialog);

/** Spec §2: the floating bug-report button; App shows it where it belongs (BugReportSlot). */
export default function BugReportButton() {
  const t = useT();
  const [opened, setOpened] = useState(false);
  // Mounted from the first open on, so the text typed before a cancel is still there.
  const [mounted, setMounted] = useState(false);

  const open = () => {
    setMounted(true);
    setOpened(true);
  };

  return (
    <>
      <button
        type="button"
        className={classes.button}
        onClick={open}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        aria-haspopup="dialog"
        data-testid="bug-report-button"
      >
        <IconBug size={20} className={classes.icon} />
        <span className={classes.label}>{t("bugReport.button")}</span>
      </button>
      {mounted && (
        <Suspense fallback={null}>
          <BugReportDialog opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
