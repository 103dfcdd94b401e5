/** Reads until `ok` holds for the value (every 100 ms), answering it; throws with the last value after `timeoutMs`. */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`never reached: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Until `read` answers something (a message received, a mail delivered), answering it. */
export async function arrives<T>(read: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  return await until(async () => read(), (value) => value !== undefined, timeoutMs) as T;
}
