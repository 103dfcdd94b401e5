import { StatusMessage } from "../components/StatusMessage/StatusMessage.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

export default function NotFoundPage() {
  const t = useT();
  usePageTitle(t("404"));
  return (
    <StatusMessage
      fullPage
      code={404}
      title={t("404")}
      message={t("404.message")}
      homeLabel={t("common.backHome")}
      testId="not-found"
    />
  );
}
