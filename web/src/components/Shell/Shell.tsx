import { Burger } from "@mantine/core";
import "@mantine/core/styles/Burger.layer.css";
// Every dialog of the signed-in pages (Modal) relies on these two being here.
import "@mantine/core/styles/ModalBase.layer.css";
import "@mantine/core/styles/Overlay.layer.css";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, Outlet, useLocation } from "react-router-dom";
import { useFocusOnNavigate } from "../../hooks/useFocusOnNavigate.ts";
import { useProjectGone } from "../../hooks/useProjectGone.ts";
import { useLanguageOnServer } from "../../hooks/useLanguageOnServer.ts";
import { useT } from "../../i18n/i18n.tsx";
import { FullPageLoader } from "../FullPageLoader/FullPageLoader.tsx";
import { PressaMark } from "../Icons/Icons.tsx";
import { Sidebar } from "../Sidebar/Sidebar.tsx";
import { CreateProjectContext } from "./createProjectContext.ts";
import classes from "./Shell.module.css";

// The drawer and the create-project dialog (with Modal, the project form and their styles) are
// not on the first screen: each loads when first opened, the drawer already on the way to a tap.
const loadMobileNav = () => import("./MobileNav.tsx");
const MobileNav = lazy(loadMobileNav);
const CreateProjectDialog = lazy(async () => ({
  default: (await import("../ProjectDialogs/CreateProjectDialog.tsx")).CreateProjectDialog,
}));

/** Navigation shell of every signed-in page (spec §2). */
export default function Shell() {
  const t = useT();
  const { pathname } = useLocation();
  const [drawerOpened, drawer] = useDisclosure(false);
  const [createOpened, createDialog] = useDisclosure(false);
  // Mounted from the first open on, so each keeps its state and its closing transition.
  const [drawerMounted, setDrawerMounted] = useState(false);
  const [createMounted, setCreateMounted] = useState(false);
  const isWide = useMediaQuery("(min-width: 62em)");
  const mainRef = useRef<HTMLElement>(null);
  useFocusOnNavigate(mainRef);
  useProjectGone();
  useLanguageOnServer();

  const closeDrawer = drawer.close;

  // The drawer closes on navigation and when the window grows into the desktop layout.
  useEffect(() => closeDrawer(), [pathname, closeDrawer]);
  useEffect(() => {
    if (isWide) closeDrawer();
  }, [isWide, closeDrawer]);

  const toggleDrawer = () => {
    setDrawerMounted(true);
    drawer.toggle();
  };

  const openCreate = () => {
    drawer.close();
    setCreateMounted(true);
    createDialog.open();
  };

  return (
    <CreateProjectContext.Provider value={openCreate}>
      <div className={classes.root}>
        {/* The first stop of Tab: past the navigation, straight to the page. */}
        <a
          href="#main-content"
          className={classes.skipLink}
          onClick={(event) => {
            event.preventDefault();
            const main = mainRef.current;
            const target = main?.querySelector<HTMLElement>("h1") ?? main;
            if (!target) return;
            target.tabIndex = -1;
            target.focus();
          }}
          data-testid="skip-link"
        >
          {t("nav.skipToContent")}
        </a>
        <aside className={classes.sidebar}>
          <Sidebar onCreateProject={openCreate} />
        </aside>

        {drawerMounted && (
          <Suspense fallback={null}>
            <MobileNav opened={drawerOpened} onClose={drawer.close} onCreateProject={openCreate} />
          </Suspense>
        )}

        <div className={classes.main}>
          <header className={classes.topbar}>
            <Burger
              opened={drawerOpened}
              onClick={toggleDrawer}
              onPointerDown={() => void loadMobileNav()}
              size="sm"
              aria-label={drawerOpened ? t("nav.closeMenu") : t("nav.openMenu")}
              aria-expanded={drawerOpened}
            />
            <Link to="/" className={classes.topbarBrand}>
              <PressaMark size={24} />
              Pressa
            </Link>
          </header>
          <main className={classes.content} id="main-content" ref={mainRef}>
            <Suspense fallback={<FullPageLoader fullHeight={false} />}>
              <Outlet />
            </Suspense>
          </main>
        </div>

        {createMounted && (
          <Suspense fallback={null}>
            <CreateProjectDialog opened={createOpened} onClose={createDialog.close} />
          </Suspense>
        )}
      </div>
    </CreateProjectContext.Provider>
  );
}
