import { Center, Loader } from "@mantine/core";
import { useT } from "../../i18n/i18n.tsx";

/** Shown while the session or a page's code loads. */
export function FullPageLoader({ fullHeight = true }: { fullHeight?: boolean }) {
  const t = useT();
  return (
    <Center mih={fullHeight ? "100dvh" : 240} role="status" aria-live="polite">
      <Loader size="md" role="img" aria-label={t("common.loading")} />
    </Center>
  );
}
