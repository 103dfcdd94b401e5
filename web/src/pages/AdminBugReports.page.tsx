import { Anchor } from "@mantine/core";
import { Link } from "react-router-dom";
import { ComingSoon } from "../components/ComingSoon/ComingSoon.tsx";
import { IconArrowLeft, IconBug } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

export default function AdminBugReportsPage() {
  const t = useT();
  usePageTitle(t("admin.bugReports"));
  return (
    <>
      <PageHeader
        eyebrow={
          <Anchor component={Link} to="/admin" size="sm" c="dimmed" style={{ display: "inline-flex", alignItems: "center", gap: 4, width: "fit-content" }}>
            <IconArrowLeft size={14} />
            {t("admin.title")}
          </Anchor>
        }
        title={t("admin.bugReports")}
        description={t("admin.bugReportsDescription")}
      />
      <ComingSoon icon={<IconBug size={24} />} />
    </>
  );
}
