import useSWR, { mutate } from "swr";
import type { ApiToken, CreatedToken } from "../../../contract/tokens.ts";
import { apiFetch } from "./fetcher.ts";

export const TOKENS_KEY = "/api/tokens";

export function useApiTokens() {
  const { data, error, isLoading, mutate: refresh } = useSWR<ApiToken[]>(TOKENS_KEY);
  return { tokens: data ?? [], isLoading, error: error as unknown, refresh };
}

export async function createApiToken(input: { name: string; projectId: number | null; scopes: ("read" | "write")[] }) {
  const made = await apiFetch<CreatedToken>(TOKENS_KEY, { method: "POST", body: input });
  await mutate(TOKENS_KEY);
  return made;
}

export async function revokeApiToken(id: number) {
  await apiFetch(`${TOKENS_KEY}/${id}`, { method: "DELETE" });
  await mutate(TOKENS_KEY);
}
