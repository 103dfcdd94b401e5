import { Button } from "@mantine/core";
import type { ReactNode } from "react";

/** The next page of a list, as on the Published page. */
export function ShowMore(
  { loading, onClick, children }: { loading: boolean; onClick: () => void; children: ReactNode },
) {
  return (
    <Button
      variant="default"
      mt="md"
      mx="auto"
      display="block"
      loading={loading}
      onClick={onClick}
      data-testid="show-more"
    >
      {children}
    </Button>
  );
}
