/*
 * Configuration, read once from the environment (names as in DESIGN.md). Every process
 * (api, worker, bot) reads the same object so defaults live in one place.
 */
export type Config = {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  telegramBotToken: string | undefined;
  telegramApiRoot: string;
  openai: { apiKey: string | undefined; baseUrl: string | undefined; model: string | undefined };
  adminEmails: Set<string>;
  gcsBucket: string | undefined;
};

export function readConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const port = Number(env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const blank = (value: string | undefined) => (value && value.trim() !== "" ? value.trim() : undefined);
  return {
    port,
    databaseUrl: blank(env.DATABASE_URL),
    dataDir: blank(env.DATA_DIR) ?? ".data",
    publicUrl: (blank(env.PUBLIC_URL) ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    smtpUrl: blank(env.SMTP_URL),
    mailFrom: blank(env.MAIL_FROM) ?? "Pressa <no-reply@localhost>",
    telegramBotToken: blank(env.TELEGRAM_BOT_TOKEN),
    telegramApiRoot: (blank(env.TELEGRAM_API_ROOT) ?? "https://api.telegram.org").replace(/\/+$/, ""),
    openai: {
      apiKey: blank(env.OPENAI_API_KEY),
      baseUrl: blank(env.OPENAI_BASE_URL),
      model: blank(env.OPENAI_MODEL),
    },
    adminEmails: new Set(
      (env.ADMIN_EMAILS ?? "").split(",").map((e) => e.trim().toLowerCase()).filter((e) => e !== ""),
    ),
    gcsBucket: blank(env.GCS_BUCKET),
  };
}
