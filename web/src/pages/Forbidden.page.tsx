import { StatusMessage } from "../components/StatusMessage/StatusMessage.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

/** An admin screen opened by someone who is not an admin. */
export default function ForbiddenPage() {
  const t = useT();
  usePageTitle(t("403"));
  return (
    <StatusMessage
      code={403}
      title={t("403")}
      message={t("403.message")}
      homeLabel={t("common.backHome")}
      testId="forbidden"
    />
  );
}
