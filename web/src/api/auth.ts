import useSWR, { mutate } from "swr";
import type { SessionUser } from "../../../contract/auth.ts";
import { ApiRequestError, apiFetch } from "./fetcher.ts";

export const USER_KEY = "/api/auth/user";

/** 401 is the normal "nobody is signed in" answer, not an error. */
async function fetchSessionUser(url: string): Promise<SessionUser | null> {
  try {
    return await apiFetch<SessionUser>(url);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

// The first session check, started before React renders, so it runs alongside the download of
// the dictionary; the first read of USER_KEY takes its answer, later reads ask afresh.
let earlyCheck: Promise<SessionUser | null> | null = null;

export function startSessionCheck() {
  earlyCheck ??= fetchSessionUser(USER_KEY);
  // A failure is reported by the read that takes it over.
  earlyCheck.catch(() => {});
}

function readSessionUser(url: string): Promise<SessionUser | null> {
  const early = earlyCheck;
  earlyCheck = null;
  return early ?? fetchSessionUser(url);
}

export function useUser() {
  const { data, error, isLoading, mutate } = useSWR<SessionUser | null>(USER_KEY, readSessionUser);
  return { user: data ?? null, isLoading, error: error as unknown, mutate };
}

export function requestCode(email: string): Promise<{ codeAlreadySent: boolean }> {
  return apiFetch("/api/auth/request-otp", { method: "POST", body: { email } });
}

export async function verifyCode(email: string, code: string): Promise<SessionUser> {
  const user = await apiFetch<SessionUser>("/api/auth/verify-otp", { method: "POST", body: { email, code } });
  await mutate(USER_KEY, user, { revalidate: false });
  return user;
}

/** Deletes the signed-in account; then nobody is signed in, as after logout. */
export async function deleteAccount(): Promise<void> {
  await apiFetch(USER_KEY, { method: "DELETE" });
  await forgetUser();
}

async function forgetUser() {
  // Signed-out first, so the protected pages leave before their data is dropped.
  await mutate(USER_KEY, null, { revalidate: false });
  await mutate((key) => key !== USER_KEY, undefined, { revalidate: false });
}

/** Ends the session and forgets everything cached for the previous user. */
export async function logout(): Promise<void> {
  await apiFetch("/api/auth/logout", { method: "POST" });
  await forgetUser();
}
