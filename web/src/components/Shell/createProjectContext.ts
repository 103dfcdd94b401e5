import { createContext, useContext } from "react";

/** One create-project dialog lives in the shell; the sidebar and pages open it. */
export const CreateProjectContext = createContext<() => void>(() => {});

export function useOpenCreateProject(): () => void {
  return useContext(CreateProjectContext);
}
