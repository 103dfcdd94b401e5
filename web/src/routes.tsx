import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { Route, Routes } from "react-router-dom";
import { GuestOnly, RequireAdmin, RequireAuth } from "./components/AuthGate/AuthGate.tsx";
import { FullPageLoader } from "./components/FullPageLoader/FullPageLoader.tsx";
import { PROJECT_SECTION_PATHS, type ProjectSectionPath } from "./lib/projectPaths.ts";

type Loader = () => Promise<{ default: ComponentType }>;

/** A lazily loaded screen whose chunk can also be fetched ahead of its first render. */
function screen(load: Loader) {
  return Object.assign(lazy(load), { preload: load });
}

// Every screen, and the shell itself, is its own chunk: the first paint loads only what it shows.
const Shell = screen(() => import("./components/Shell/Shell.tsx"));
const AuthPage = screen(() => import("./pages/Auth.page.tsx"));
const DashboardPage = screen(() => import("./pages/Dashboard.page.tsx"));
const ProjectPage = screen(() => import("./pages/Project.page.tsx"));
const ProjectSectionPage = lazy(() => import("./pages/ProjectSection.page.tsx"));
const AiAssistantPage = screen(() => import("./pages/AiAssistant.page.tsx"));
const ChannelsPage = screen(() => import("./pages/Channels.page.tsx"));
const DraftsPage = screen(() => import("./pages/Drafts.page.tsx"));
const SchedulePage = screen(() => import("./pages/Schedule.page.tsx"));
const PublishedPage = screen(() => import("./pages/Published.page.tsx"));
const StatisticsPage = screen(() => import("./pages/Statistics.page.tsx"));
const AdsPage = screen(() => import("./pages/Ads.page.tsx"));
const ActivityPage = screen(() => import("./pages/Activity.page.tsx"));
const WebhooksPage = screen(() => import("./pages/Webhooks.page.tsx"));
const MembersPage = screen(() => import("./pages/Members.page.tsx"));
const InvitePage = screen(() => import("./pages/Invite.page.tsx"));
const ReviewPage = screen(() => import("./pages/Review.page.tsx"));
const SettingsPage = screen(() => import("./pages/Settings.page.tsx"));
const SandboxPage = screen(() => import("./pages/Sandbox.page.tsx"));
const BillingPage = lazy(() => import("./pages/Billing.page.tsx"));
const AdminPage = screen(() => import("./pages/Admin.page.tsx"));
const AdminBugReportsPage = lazy(() => import("./pages/AdminBugReports.page.tsx"));
const NotFoundPage = lazy(() => import("./pages/NotFound.page.tsx"));
const ApiDocsPage = lazy(() => import("./pages/ApiDocs.page.tsx"));

// Project sections that have their screen; the others still show the placeholder.
const SECTION_PAGES: Partial<Record<ProjectSectionPath, ReturnType<typeof screen>>> = {
  "ai-assistant": AiAssistantPage,
  channels: ChannelsPage,
  drafts: DraftsPage,
  schedule: SchedulePage,
  published: PublishedPage,
  statistics: StatisticsPage,
  ads: AdsPage,
  activity: ActivityPage,
  webhooks: WebhooksPage,
  members: MembersPage,
};

/** The screen an address opens first, and whether it sits in the signed-in shell. */
function screenAt(pathname: string): { page?: ReturnType<typeof screen>; inShell: boolean } {
  if (pathname === "/auth") return { page: AuthPage, inShell: false };
  if (pathname === "/") return { page: DashboardPage, inShell: true };
  if (pathname === "/settings") return { page: SettingsPage, inShell: true };
  if (pathname === "/sandbox") return { page: SandboxPage, inShell: true };
  if (pathname.startsWith("/admin")) return { page: AdminPage, inShell: true };
  if (pathname.startsWith("/invite/")) return { page: InvitePage, inShell: true };
  const project = /^\/project\/\d+(?:\/([a-z-]+))?/.exec(pathname);
  if (!project) return { inShell: false };
  if (project[1] === "review") return { page: ReviewPage, inShell: true };
  const section = project[1] as ProjectSectionPath | undefined;
  return { page: section ? SECTION_PAGES[section] : ProjectPage, inShell: true };
}

/**
 * Starts fetching the chunks the address will render, beside the session check, instead of
 * one after another (app → shell → screen): on a page load that is one or two round trips
 * fewer before the screen shows. A chunk that fails here is fetched again when rendered.
 */
export function preloadScreen(pathname: string) {
  const { page, inShell } = screenAt(pathname);
  if (inShell) Shell.preload().catch(() => {});
  page?.preload().catch(() => {});
}

function Standalone({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullPageLoader />}>{children}</Suspense>;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/auth"
        element={
          <GuestOnly>
            <Standalone>
              <AuthPage />
            </Standalone>
          </GuestOnly>
        }
      />
      <Route element={<RequireAuth />}>
        <Route
          element={
            <Standalone>
              <Shell />
            </Standalone>
          }
        >
          <Route index element={<DashboardPage />} />
          <Route path="project/:id" element={<ProjectPage />} />
          {PROJECT_SECTION_PATHS.map((path) => {
            const Page = SECTION_PAGES[path];
            return (
              <Route key={path} path={`project/:id/${path}`} element={Page ? <Page /> : <ProjectSectionPage section={path} />} />
            );
          })}
          {/* The posts authors sent for review (the navigation shows it to those who review). */}
          <Route path="project/:id/review" element={<ReviewPage />} />
          {/* The schedule links to a draft: the drafts page opens with its editor. */}
          <Route path="project/:id/drafts/:draftId" element={<DraftsPage />} />
          {/* an invitation mail's link (docs/teams.md) */}
          <Route path="invite/:token" element={<InvitePage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="sandbox" element={<SandboxPage />} />
          <Route path="billing" element={<BillingPage />} />
          <Route path="admin" element={<RequireAdmin />}>
            <Route index element={<AdminPage />} />
            <Route path="bug-reports" element={<AdminBugReportsPage />} />
          </Route>
        </Route>
      </Route>
      {/* the API reference: public, as the document it renders */}
      <Route
        path="/api-docs"
        element={
          <Standalone>
            <ApiDocsPage />
          </Standalone>
        }
      />
      <Route
        path="*"
        element={
          <Standalone>
            <NotFoundPage />
          </Standalone>
        }
      />
    </Routes>
  );
}
