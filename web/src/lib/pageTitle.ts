import { useEffect } from "react";

export const PRODUCT_NAME = "Pressa";

/** Spec §2: page titles read "{title} | Pressa". */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} | ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
