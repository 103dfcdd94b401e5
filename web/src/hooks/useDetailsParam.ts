import { useCallback, useState } from "react";
import { useSearchParams } from "react-router-dom";

/**
 * The post whose details the schedule page shows. Other screens link to one as `?post=<id>`
 * (a draft's row names the post holding it); closing the details drops the parameter, so Back
 * and a reload do not reopen them.
 */
export function useDetailsParam(): [number | null, (id: number | null) => void] {
  const [params, setParams] = useSearchParams();
  const linked = params.get("post");
  const [detailsId, setDetailsId] = useState<number | null>(linked && /^\d+$/.test(linked) ? Number(linked) : null);
  const set = useCallback(
    (id: number | null) => {
      setDetailsId(id);
      if (id === null && params.has("post")) setParams((current) => {
        current.delete("post");
        return current;
      }, { replace: true });
    },
    [params, setParams],
  );
  return [detailsId, set];
}
