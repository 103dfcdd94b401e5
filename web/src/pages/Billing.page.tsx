import { ComingSoon } from "../components/ComingSoon/ComingSoon.tsx";
import { IconCreditCard } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

/** Spec §6: billing is disabled for everyone; the route only says so. */
export default function BillingPage() {
  const t = useT();
  usePageTitle(t("billing.title"));
  return (
    <>
      <PageHeader title={t("billing.title")} />
      <ComingSoon icon={<IconCreditCard size={24} />} title={t("billing.unavailable")} description={t("billing.unavailableText")} />
    </>
  );
}
