import { inject } from "vitest";
import postgres from "postgres";

/** A new database with the full schema, copied from the run's migrated template. */
export async function freshDatabase(): Promise<string> {
  const adminUrl = inject("pgAdminUrl");
  const name = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name} template pressa_template`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
