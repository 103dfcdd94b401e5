import { Drawer } from "@mantine/core";
import "@mantine/core/styles/ModalBase.layer.css";
import "@mantine/core/styles/Overlay.layer.css";
import "@mantine/core/styles/Drawer.layer.css";
import { useOpenedAfterMount } from "../../hooks/useOpenedAfterMount.ts";
import { useT } from "../../i18n/i18n.tsx";
import { Sidebar } from "../Sidebar/Sidebar.tsx";
import classes from "./Shell.module.css";

type MobileNavProps = { opened: boolean; onClose: () => void; onCreateProject: () => void };

/** The sidebar in a drawer below the md breakpoint; its own chunk, loaded at the first open. */
export default function MobileNav({ opened, onClose, onCreateProject }: MobileNavProps) {
  const t = useT();
  const shown = useOpenedAfterMount(opened);
  return (
    <Drawer
      opened={shown}
      onClose={onClose}
      size="16rem"
      withCloseButton={false}
      aria-label={t("nav.main")}
      classNames={{ body: classes.drawerBody }}
    >
      <Sidebar onCreateProject={onCreateProject} />
    </Drawer>
  );
}
