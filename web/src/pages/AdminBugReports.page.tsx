import { ComingSoon } from "../components/ComingSoon/ComingSoon.tsx";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { IconBug } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

export default function AdminBugReportsPage() {
  const t = useT();
  usePageTitle(t("admin.bugReports"));
  return (
    <>
      <PageHeader
        eyebrow={<BackLink to="/admin" label={t("admin.title")} />}
        title={t("admin.bugReports")}
        description={t("admin.bugReportsDescription")}
      />
      <ComingSoon icon={<IconBug size={24} />} />
    </>
  );
}
