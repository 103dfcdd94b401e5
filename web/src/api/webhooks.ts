import useSWR, { mutate } from "swr";
import type { CreatedWebhook, Webhook, WebhookDelivery, WebhookEvent } from "../../../contract/webhooks.ts";
import { apiFetch } from "./fetcher.ts";

const webhooksKey = (projectId: number) => `/api/projects/${projectId}/webhooks`;
const deliveriesKey = (projectId: number, webhookId: number) => `${webhooksKey(projectId)}/${webhookId}/deliveries`;

export function useWebhooks(projectId: number | null, enabled: boolean) {
  const { data, error, isLoading, mutate: refresh } = useSWR<Webhook[]>(projectId === null || !enabled ? null : webhooksKey(projectId));
  return { webhooks: data ?? [], error: error as unknown, isLoading, refresh };
}

/** An endpoint's delivery log, read again every few seconds while it is open (tries go on in the worker). */
export function useDeliveries(projectId: number, webhookId: number | null) {
  const { data, error } = useSWR<WebhookDelivery[]>(webhookId === null ? null : deliveriesKey(projectId, webhookId), { refreshInterval: 5_000 });
  return { deliveries: data ?? [], error: error as unknown };
}

export async function createWebhook(projectId: number, input: { url: string; events: WebhookEvent[] }) {
  const made = await apiFetch<CreatedWebhook>(webhooksKey(projectId), { method: "POST", body: input });
  await mutate(webhooksKey(projectId));
  return made;
}

export async function deleteWebhook(projectId: number, webhookId: number) {
  await apiFetch(`${webhooksKey(projectId)}/${webhookId}`, { method: "DELETE" });
  await mutate(webhooksKey(projectId));
}

export async function redeliver(projectId: number, webhookId: number, deliveryId: number) {
  await apiFetch(`${deliveriesKey(projectId, webhookId)}/${deliveryId}/redeliver`, { method: "POST" });
  await mutate(deliveriesKey(projectId, webhookId));
  await mutate(webhooksKey(projectId));
}
