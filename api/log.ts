/** Structured JSON logs, one line each, on stderr (stdout stays free for tools). */
export type Log = (level: "debug" | "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;

export function jsonLog(service: string): Log {
  return (level, message, fields = {}) => {
    const line = { time: new Date().toISOString(), level, service, message, ...fields };
    console.error(JSON.stringify(line, (_key, value) => (value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value)));
  };
}

export const silentLog: Log = () => {};
