/** 32 random bytes as base64url (43 characters): a secret nobody can guess, safe in a URL. */
export function randomToken(): string {
  const base64 = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  return base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
