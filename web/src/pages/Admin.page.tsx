import { Button } from "@mantine/core";
import { Link } from "react-router-dom";
import { ComingSoon } from "../components/ComingSoon/ComingSoon.tsx";
import { IconBug, IconShield } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

export default function AdminPage() {
  const t = useT();
  usePageTitle(t("admin.title"));
  return (
    <>
      <PageHeader
        title={t("admin.title")}
        description={t("admin.description")}
        actions={
          <Button component={Link} to="/admin/bug-reports" variant="default" leftSection={<IconBug size={16} />}>
            {t("admin.bugReports")}
          </Button>
        }
      />
      <ComingSoon icon={<IconShield size={24} />} />
    </>
  );
}
