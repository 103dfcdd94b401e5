/*
 * The schema as a reader wants it: every current function whole, one file per area
 * (sql/functions/<area>.sql), and the tables with their columns, constraints, indexes and
 * triggers (sql/schema.sql). Migrations are history — a function may be restated in several
 * of them. The function files are the source of the functions (sql/function_files.ts):
 * `scripts/migrations.ts commit` turns their changes into a migration, then rewrites every
 * file from the migrated catalog with this module, so they stay in pg_get_functiondef's form;
 * tests/sql/schema_files.test.ts checks that they equal what the migrations make.
 */
import postgres from "postgres";

/**
 * Which file holds a function: sql/functions/<area>.sql, by the function's name (overloads
 * share their file). A list, not a pattern, so a name says what the function does and never
 * bends to land in the right file. A new function goes in its area's list; a new area is a
 * new file.
 */
export const FUNCTION_AREAS: Record<string, readonly string[]> = {
  activity: ["log_activity", "project_activity"],
  api: ["begin_idempotent", "etag", "finish_idempotent", "idempotent_answer", "lock_current_etag", "prune_idempotency_keys"],
  ads: [
    "ad_bot_delete_limit_minutes", "ad_label", "assert_ad_format", "ad_labelled_length", "ad_pin_range", "ad_removal_channel", "ad_removal_lead", "ad_removal_retry", "ad_removal_target",
    "ad_sent_at", "ad_state", "ad_totals", "post_ad", "ad_windows", "assert_ad_fits", "assert_ad_window_free", "defer_ad_removal", "hold_for_ad_window",
    "project_ads", "queue_ad_removal", "queue_ad_term", "record_ad_removed", "remind_ad_removal", "tell_ad_owners",
  ],
  admin: [
    "admin_bug_reports", "admin_stats", "admin_user_counts", "admin_users", "assert_admin",
    "create_bug_report", "set_bug_report_status",
  ],
  ai_jobs: [
    "add_chat_message", "ai_project", "ai_queue", "begin_ai_call", "chat_history", "create_generation_job",
    "fail_generation_job", "finish_generation_job", "get_generation_job", "record_ai_tokens",
    "record_draft_generation", "reserve_ai_tokens", "settle_ai_call", "spent_ai_budget", "start_generation_job", "utc_today",
  ],
  autopilot: [
    "autopilot_fill", "autopilot_horizon", "autopilot_post_to_write", "autopilot_remove_slot_posts",
    "plan_slot_instant", "plan_slot_times", "queue_autopilot_fill", "queue_autopilot_fills",
    "queue_forecast", "queue_health", "queue_low_days", "record_autopilot_content",
  ],
  channels: [
    "approver_change_prerequisites", "approver_request_to_ask", "assert_post_in_channel",
    "channel_prerequisites", "decide_approver_request", "delete_channel", "drop_approver_request",
    "drop_expired_approver_requests", "fail_post_for_channel_rights", "live_channel", "move_approver",
    "open_approver_request", "post_channel_changed", "post_channel_messages", "project_channel",
    "project_channels", "record_admin_chat", "record_approver_asked", "record_channel_rights_checked",
    "request_channel", "withdraw_approvals",
  ],
  comments: [
    "add_post_comment", "delete_post_comment", "edit_post_comment", "post_comment_list",
  ],
  common: [
    "is_supported_timezone", "seconds_to_next_utc_day", "touch_updated_at", "bump_list_version",
  ],
  content_plans: [
    "create_content_plan", "delete_content_plan", "project_content_plans", "update_content_plan", "content_plans_version",
  ],
  drafts: [
    "assert_draft_room", "bulk_create_drafts", "create_draft", "delete_draft", "lock_draft",
    "lock_drafts_order", "move_draft", "project_drafts", "reorder_drafts", "update_draft", "drafts_version",
  ],
  health: [
    "health", "record_heartbeat", "recover_from_dead_workers", "recover_from_live_workers",
  ],
  home_cards: [
    "account_project_overview", "month_ad_income", "next_planned_post", "posts_in_review", "posts_needing_attention", "subscribers_at",
  ],
  invite_links: [
    "add_invite_link", "invite_link_prerequisites", "invite_link_to_revoke", "project_invite_links",
    "revoke_channel_invite_links", "revoke_invite_link",
  ],
  limits: [
    "approver_request_ttl", "bulk_add_lines_max", "content_plan_slots_max", "default_timezone", "drafts_per_generation_max",
    "generated_post_length_default", "photo_caption_max", "post_text_max", "queue_forecast_days_max",
    "series_ends_after_max", "series_horizon_days_max", "series_per_project_max",
    "series_skips_max", "session_ttl", "sign_in_code_attempts_max", "sign_in_code_ttl",
    "supported_timezones",
  ],
  metrics: [
    "add_telegram_call_metrics", "observe_metric", "read_metrics", "record_sign_in_mail_metric",
  ],
  notifications: [
    "notification_settings", "notify_owner", "set_user_language", "owner_notification", "update_notification_settings",
    "queue_weekly_summaries", "weekly_summary",
  ],
  posts_approval: [
    "approval_lead", "approval_queue_name", "approval_reminder_delay", "claim_approval_reminder", "claim_post_for_approval", "decide_post", "notify_admin",
    "queue_approval", "queue_approval_at", "queue_waiting_approvals", "record_approval_failed", "record_approval_sent",
    "queue_approval_reminder", "request_post_approval", "resend_post_approval", "restart_approval", "retract_approval", "withdraw_approval",
  ],
  posts_edit: [
    "decide_post_edit", "edit_round", "post_edit_info", "record_edit_applied", "record_edit_failed",
    "record_edit_preview_sent", "request_post_edit",
  ],
  posts_publish: [
    "begin_sending", "defer_publication", "pinning_target", "post_delivery_info", "post_job_key",
    "postpone_sending", "queue_pinning", "queue_publication", "record_published", "record_send_failed",
    "record_sent_part", "resolve_uncertain", "resolve_uncertain_post", "resolve_uncertain_post_as_owner",
    "unqueue_post_jobs",
  ],
  posts_schedule: [
    "bump_posts_version", "delete_post", "draft_for_post", "lock_post", "posts_version", "project_posts",
    "project_posts_between", "published_posts", "schedule_post", "update_post", "project_post",
    "write_and_schedule_post",
  ],
  projects: [
    "create_project", "delete_project", "get_project", "member_project", "update_project", "user_projects",
  ],
  reviews: [
    "assert_publishable", "hold_for_review", "member_notification", "needs_review", "notify_member", "review_post",
    "review_queue", "send_for_approval",
  ],
  series: [
    "assert_series_end", "available_series_drafts", "next_occurrence", "queue_series_spawn",
    "series_next_time", "series_upcoming", "skip_series_occurrence", "spawn_series_occurrence",
  ],
  sign_in: [
    "count_sign_in_attempt", "delete_expired_sign_in_state", "extend_session", "hash_sign_in_code",
    "request_sign_in_code", "revoke_session", "session_user", "sign_in_mails_to", "verify_sign_in_code",
  ],
  stats: [
    "best_received_posts", "project_stats", "project_suggested_times", "prune_stats", "queue_subscriber_sample",
    "queue_subscriber_samples", "record_member_update", "record_member_updates", "record_reaction_count",
    "record_subscriber_sample", "stats_iso", "subscriber_sample_target",
  ],
  team: [
    "accept_invitation", "add_creator_as_owner", "assert_owner_remains", "delete_account", "authorize", "change_member_role", "invitation_mail", "invite_member",
    "open_invitations", "project_members", "remove_member", "withdraw_invitation",
  ],
  webhooks: [
    "assert_webhooks_manager", "create_webhook", "delete_webhook", "update_webhook", "post_json", "draft_json", "project_webhooks", "queue_webhook_deliveries", "queue_webhook_delivery", "record_webhook_attempt",
    "prune_webhook_deliveries", "redeliver_webhook", "webhook_delivery_log", "webhook_delivery_to_send", "webhook_event_type", "url_origin", "resume_webhook", "channel_json", "webhook_queue",
  ],
  tokens: ["create_api_token", "rename_api_token", "revoke_api_token", "token_user", "user_api_tokens"],
  telegram: [
    "claim_telegram_updates", "record_telegram_update_handled", "record_telegram_webhook", "reserve_telegram_send",
    "store_telegram_updates", "telegram_chat_wait_ms", "telegram_webhook_secret_digest",
  ],
  uploads: [
    "assert_project_uploads", "forget_upload", "readable_upload", "record_upload", "take_orphan_uploads",
    "upload_key",
  ],
};

const AREA_OF = new Map(Object.entries(FUNCTION_AREAS).flatMap(([area, names]) => names.map((name) => [name, area])));

/** Where a function not in FUNCTION_AREAS is to be named, said by the test and the commit that meet it. */
export const unlistedFunction = (name: string) =>
  `${name} is in no area: add it to FUNCTION_AREAS in sql/schema_files.ts, in the list of the sql/functions/<area>.sql it belongs in`;

/** The area of a function, or undefined when FUNCTION_AREAS does not list it. */
export function areaOf(functionName: string): string | undefined {
  return AREA_OF.get(functionName);
}

const COMMIT = '--   npx deno run -A scripts/migrations.ts commit "what it does"\n';
const FUNCTIONS_HEADER = (area: string) =>
  `-- The ${area} functions. This file is their source: change a function here (a new one goes\n` +
  "-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with\n" +
  COMMIT +
  "-- A drop, a changed signature, tables and data go in sql/migrations/current/.\n";
const SCHEMA_HEADER =
  "-- Generated from the migrated database's catalog (sql/schema_files.ts): tables, constraints, indexes, triggers and types.\n" +
  "-- Read here; change them in sql/migrations/current/, then commit the change with\n" +
  COMMIT;

/** Every generated file's path (relative to sql/) and text. */
export async function schemaFiles(connectionString: string): Promise<Map<string, string>> {
  const sql = postgres(connectionString, { max: 1, onnotice: () => {} });
  try {
    const files = new Map<string, string>();
    const functions = await sql<{ schema: string; name: string; definition: string }[]>`
      select n.nspname as schema, p.proname as name, pg_get_functiondef(p.oid) as definition
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('app_public', 'app_private') and p.prokind = 'f'
      order by n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)`;
    const byArea = new Map<string, string[]>();
    for (const f of functions) {
      const area = areaOf(f.name);
      if (!area) throw new Error(unlistedFunction(f.name));
      byArea.set(area, [...(byArea.get(area) ?? []), `${f.definition.trimEnd()};\n`]);
    }
    for (const [area, bodies] of [...byArea].sort(([a], [b]) => a.localeCompare(b))) {
      files.set(`functions/${area}.sql`, `${FUNCTIONS_HEADER(area.replaceAll("_", " "))}\n${bodies.join("\n")}`);
    }
    files.set("schema.sql", await tablesText(sql));
    return files;
  } finally {
    await sql.end();
  }
}

async function tablesText(sql: postgres.Sql) {
  const tables = await sql<{ oid: number; name: string; persistence: string }[]>`
    select c.oid, n.nspname || '.' || c.relname as name, c.relpersistence as persistence
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('app_public', 'app_private') and c.relkind = 'r'
    order by n.nspname, c.relname`;
  const parts = [SCHEMA_HEADER];
  for (const table of tables) {
    const columns = await sql<{ line: string }[]>`
      select '  ' || quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod)
        || case when a.attidentity = 'a' then ' generated always as identity'
                when a.attidentity = 'd' then ' generated by default as identity' else '' end
        || case when a.attgenerated = 's' then ' generated always as (' || pg_get_expr(d.adbin, d.adrelid) || ') stored'
                when d.adbin is not null then ' default ' || pg_get_expr(d.adbin, d.adrelid) else '' end
        || case when a.attnotnull then ' not null' else '' end as line
      from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = ${table.oid} and a.attnum > 0 and not a.attisdropped
      order by a.attnum`;
    const constraints = await sql<{ line: string }[]>`
      select '  constraint ' || quote_ident(conname) || ' ' || pg_get_constraintdef(oid) as line
      from pg_constraint where conrelid = ${table.oid} and contype <> 'n' order by conname`;
    const lines = [...columns, ...constraints].map((r) => r.line).join(",\n");
    parts.push(`create ${table.persistence === "u" ? "unlogged " : ""}table ${table.name} (\n${lines}\n);`);
    const indexes = await sql<{ def: string }[]>`
      select pg_get_indexdef(i.indexrelid) as def from pg_index i
      where i.indrelid = ${table.oid}
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = ${table.oid})
      order by 1`;
    const triggers = await sql<{ def: string }[]>`
      select pg_get_triggerdef(oid) as def from pg_trigger where tgrelid = ${table.oid} and not tgisinternal order by tgname`;
    for (const { def } of [...indexes, ...triggers]) parts.push(`${def};`);
    parts.push("");
  }
  const types = await sql<{ def: string }[]>`
    select 'create type ' || n.nspname || '.' || t.typname || ' as (' ||
      string_agg(quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod), ', ' order by a.attnum) || ');' as def
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
    join pg_class c on c.oid = t.typrelid and c.relkind = 'c'
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where n.nspname in ('app_public', 'app_private')
    group by n.nspname, t.typname order by 1`;
  for (const { def } of types) parts.push(def);
  return `${parts.join("\n")}\n`;
}

/** Writes the files under sql/ (those of areas that no longer exist are removed). */
export async function writeSchemaFiles(connectionString: string) {
  const root = new URL(".", import.meta.url).pathname;
  const files = await schemaFiles(connectionString);
  await Deno.mkdir(`${root}functions`, { recursive: true });
  for await (const entry of Deno.readDir(`${root}functions`)) {
    if (!files.has(`functions/${entry.name}`)) await Deno.remove(`${root}functions/${entry.name}`);
  }
  for (const [path, text] of files) await Deno.writeTextFile(`${root}${path}`, text);
  return [...files.keys()];
}
