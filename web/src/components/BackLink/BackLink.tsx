import { Anchor } from "@mantine/core";
import { Link } from "react-router-dom";
import { IconArrowLeft } from "../Icons/Icons.tsx";

/** The small "← parent" link above a sub-page title. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor
      component={Link}
      to={to}
      size="sm"
      c="dimmed"
      style={{ display: "inline-flex", alignItems: "center", gap: 4, width: "fit-content" }}
    >
      <IconArrowLeft size={14} />
      {label}
    </Anchor>
  );
}
