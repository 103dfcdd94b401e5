import { Burger, Drawer } from "@mantine/core";
import "@mantine/core/styles/Burger.layer.css";
import "@mantine/core/styles/ModalBase.layer.css";
import "@mantine/core/styles/Overlay.layer.css";
import "@mantine/core/styles/Drawer.layer.css";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { Suspense, useEffect } from "react";
import { Link, Outlet, useLocation } from "react-router-dom";
import { useT } from "../../i18n/i18n.tsx";
import { FullPageLoader } from "../FullPageLoader/FullPageLoader.tsx";
import { PressaMark } from "../Icons/Icons.tsx";
import { CreateProjectDialog } from "../ProjectDialogs/CreateProjectDialog.tsx";
import { Sidebar } from "../Sidebar/Sidebar.tsx";
import { CreateProjectContext } from "./createProjectContext.ts";
import classes from "./Shell.module.css";

/** Navigation shell of every signed-in page (spec §2). */
export default function Shell() {
  const t = useT();
  const { pathname } = useLocation();
  const [drawerOpened, drawer] = useDisclosure(false);
  const [createOpened, createDialog] = useDisclosure(false);
  const isWide = useMediaQuery("(min-width: 62em)");

  const closeDrawer = drawer.close;

  // The drawer closes on navigation and when the window grows into the desktop layout.
  useEffect(() => closeDrawer(), [pathname, closeDrawer]);
  useEffect(() => {
    if (isWide) closeDrawer();
  }, [isWide, closeDrawer]);

  const openCreate = () => {
    drawer.close();
    createDialog.open();
  };

  return (
    <CreateProjectContext.Provider value={openCreate}>
      <div className={classes.root}>
        <aside className={classes.sidebar}>
          <Sidebar onCreateProject={openCreate} />
        </aside>

        <Drawer
          opened={drawerOpened}
          onClose={drawer.close}
          size="16rem"
          withCloseButton={false}
          aria-label={t("nav.main")}
          classNames={{ body: classes.drawerBody }}
        >
          <Sidebar onCreateProject={openCreate} />
        </Drawer>

        <div className={classes.main}>
          <header className={classes.topbar}>
            <Burger
              opened={drawerOpened}
              onClick={drawer.toggle}
              size="sm"
              aria-label={drawerOpened ? t("nav.closeMenu") : t("nav.openMenu")}
              aria-expanded={drawerOpened}
            />
            <Link to="/" className={classes.topbarBrand}>
              <PressaMark size={24} />
              Pressa
            </Link>
          </header>
          <main className={classes.content}>
            <Suspense fallback={<FullPageLoader fullHeight={false} />}>
              <Outlet />
            </Suspense>
          </main>
        </div>

        <CreateProjectDialog opened={createOpened} onClose={createDialog.close} />
      </div>
    </CreateProjectContext.Provider>
  );
}
