import { lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { Route, Routes } from "react-router-dom";
import { GuestOnly, RequireAdmin, RequireAuth } from "./components/AuthGate/AuthGate.tsx";
import { FullPageLoader } from "./components/FullPageLoader/FullPageLoader.tsx";
import { PROJECT_SECTION_PATHS, type ProjectSectionPath } from "./lib/projectPaths.ts";

// Every screen, and the shell itself, is its own chunk: the first paint loads only what it shows.
const Shell = lazy(() => import("./components/Shell/Shell.tsx"));
const AuthPage = lazy(() => import("./pages/Auth.page.tsx"));
const DashboardPage = lazy(() => import("./pages/Dashboard.page.tsx"));
const ProjectPage = lazy(() => import("./pages/Project.page.tsx"));
const ProjectSectionPage = lazy(() => import("./pages/ProjectSection.page.tsx"));
const AiAssistantPage = lazy(() => import("./pages/AiAssistant.page.tsx"));
const ChannelsPage = lazy(() => import("./pages/Channels.page.tsx"));
const DraftsPage = lazy(() => import("./pages/Drafts.page.tsx"));
const SchedulePage = lazy(() => import("./pages/Schedule.page.tsx"));
const PublishedPage = lazy(() => import("./pages/Published.page.tsx"));
const StatisticsPage = lazy(() => import("./pages/Statistics.page.tsx"));
const SettingsPage = lazy(() => import("./pages/Settings.page.tsx"));
const BillingPage = lazy(() => import("./pages/Billing.page.tsx"));
const AdminPage = lazy(() => import("./pages/Admin.page.tsx"));
const AdminBugReportsPage = lazy(() => import("./pages/AdminBugReports.page.tsx"));
const NotFoundPage = lazy(() => import("./pages/NotFound.page.tsx"));

// Project sections that have their screen; the others still show the placeholder.
const SECTION_PAGES: Partial<Record<ProjectSectionPath, ComponentType>> = {
  "ai-assistant": AiAssistantPage,
  channels: ChannelsPage,
  drafts: DraftsPage,
  schedule: SchedulePage,
  published: PublishedPage,
  statistics: StatisticsPage,
};

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
          {/* The schedule links to a draft: the drafts page opens with its editor. */}
          <Route path="project/:id/drafts/:draftId" element={<DraftsPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="billing" element={<BillingPage />} />
          <Route path="admin" element={<RequireAdmin />}>
            <Route index element={<AdminPage />} />
            <Route path="bug-reports" element={<AdminBugReportsPage />} />
          </Route>
        </Route>
      </Route>
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
