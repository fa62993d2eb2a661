// Typed calls for a project's webhooks: list, add (the secret answered once),
// change, rotate the secret, delete, and each webhook's delivery log.
import { useMemo } from "react";
import type { ApiClient } from "./client";
import { useApiClient } from "./context";
import type { Component } from "./contract";
import type { ID } from "./types";

export type Webhook = Component<"Webhook">;
/** A webhook with its signing secret, as answered when it is made or rotated. */
export type WebhookWithSecret = Component<"WebhookWithSecret">;
export type WebhookEvent = Component<"WebhookEvent">;
export type WebhookDelivery = Component<"WebhookDelivery">;

/** Every event a webhook may take, in the order the API documents them. */
export const webhookEvents: WebhookEvent[] = [
  "release.completed",
  "release.failed",
  "calibration_round.closed",
  "item.decided",
  "import.completed",
  "annotator.flagged",
];

export function webhooksApi(c: ApiClient) {
  const at = (pid: ID, wid: ID) => ({ path: { pid, wid } });
  return {
    list: (pid: ID) => c.get("/projects/{pid}/webhooks", { path: { pid } }).then((r) => r.items),
    create: (pid: ID, url: string, events: WebhookEvent[]) => c.post("/projects/{pid}/webhooks", { path: { pid }, body: { url, events } }),
    update: (pid: ID, wid: ID, body: { url?: string; events?: WebhookEvent[]; enabled?: boolean }) =>
      c.patch("/projects/{pid}/webhooks/{wid}", { ...at(pid, wid), body }),
    rotate: (pid: ID, wid: ID) => c.post("/projects/{pid}/webhooks/{wid}/rotate", at(pid, wid)),
    remove: (pid: ID, wid: ID) => c.delete("/projects/{pid}/webhooks/{wid}", at(pid, wid)),
    deliveries: (pid: ID, wid: ID) => c.get("/projects/{pid}/webhooks/{wid}/deliveries", at(pid, wid)).then((r) => r.items),
  };
}

export function useWebhooksApi() {
  const c = useApiClient();
  return useMemo(() => webhooksApi(c), [c]);
}

export const webhookKeys = {
  list: (pid: ID) => ["projects", pid, "webhooks"] as const,
  deliveries: (pid: ID, wid: ID) => ["projects", pid, "webhooks", wid, "deliveries"] as const,
};
