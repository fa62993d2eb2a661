// Typed calls for the workflow endpoints: projects with schemas, stats,
// items and imports, criteria, the queue and assignments.
import { useMemo } from "react";
import type { Answers } from "../form/schema";
import type { ApiClient } from "./client";
import { useApiClient } from "./context";
import { ApiError, errorFromResponse } from "./errors";
import type { ID } from "./types";
import type {
  Claim,
  Criterion,
  CriterionVerdict,
  FlagCategory,
  ImportReport,
  ItemFilter,
  ItemPage,
  ItemRecord,
  MyProgress,
  ProjectDetail,
  ProjectStats,
  QueueStage,
  SubmitBody,
  SubmitResult,
  WorkflowPolicy,
} from "./workflowTypes";

const seg = (id: ID) => encodeURIComponent(id);
const proj = (pid: ID) => `/api/v1/projects/${seg(pid)}`;
const asg = (aid: ID) => `/api/v1/assignments/${seg(aid)}`;

export interface CreateWorkflowProject {
  name: string;
  description?: string;
  template?: string;
  workflow?: WorkflowPolicy;
}

/** Query string from the set fields of a filter. */
export function itemQuery(f: ItemFilter): string {
  const q = new URLSearchParams();
  if (f.stage) q.set("stage", f.stage);
  if (f.flagged !== undefined) q.set("flagged", String(f.flagged));
  if (f.external_id) q.set("external_id", f.external_id);
  if (f.cursor) q.set("cursor", f.cursor);
  if (f.limit) q.set("limit", String(f.limit));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export function workflowApi(c: ApiClient) {
  return {
    project: (pid: ID) => c.get<ProjectDetail>(proj(pid)),
    createProject: (req: CreateWorkflowProject) => c.post<ProjectDetail>("/api/v1/projects", req),
    stats: (pid: ID) => c.get<ProjectStats>(`${proj(pid)}/stats`),
    /** The caller's own progress per stage (any member). */
    myProgress: (pid: ID) => c.get<MyProgress>(`${proj(pid)}/me/progress`),
    items: (pid: ID, f: ItemFilter = {}) => c.get<ItemPage>(`${proj(pid)}/items${itemQuery(f)}`),
    item: (pid: ID, iid: ID) => c.get<{ item: ItemRecord; ground_truth_history: unknown[]; criteria: Criterion[] }>(`${proj(pid)}/items/${seg(iid)}`),
    resolveFlag: (pid: ID, iid: ID, action: "return" | "drop", note: string) =>
      c.post<void>(`${proj(pid)}/items/${seg(iid)}/flag`, { action, note }),
    criteria: (pid: ID, status = "pending") => c.get<{ items: Criterion[] }>(`${proj(pid)}/criteria?status=${encodeURIComponent(status)}`),
    reviewCriterion: (pid: ID, cid: ID, status: CriterionVerdict) => c.post<Criterion>(`${proj(pid)}/criteria/${seg(cid)}`, { status }),
    /** The next piece of work, or null when nothing is left (204). */
    next: async (pid: ID, stage: QueueStage) => (await c.post<Claim | undefined>(`${proj(pid)}/queue/next`, { stage })) ?? null,
    saveDraft: (aid: ID, answers: Answers, version: number) => c.put<{ version: number }>(`${asg(aid)}/draft`, { answers, version }),
    heartbeat: (aid: ID) => c.post<{ lease_expires_at: string }>(`${asg(aid)}/heartbeat`),
    skip: (aid: ID, reason: string) => c.post<void>(`${asg(aid)}/skip`, { reason }),
    flag: (aid: ID, category: FlagCategory, reason: string) => c.post<void>(`${asg(aid)}/flag`, { category, reason }),
    /** Submits; pass the same key when retrying so the server applies it once. */
    submit: (aid: ID, body: SubmitBody, idempotencyKey: string) =>
      c.request<SubmitResult>("POST", `${asg(aid)}/submit`, body, { headers: { "Idempotency-Key": idempotencyKey } }),
  };
}

export type WorkflowApi = ReturnType<typeof workflowApi>;

/** The workflow calls bound to the app's client. */
export function useWorkflowApi(): WorkflowApi {
  const client = useApiClient();
  return useMemo(() => workflowApi(client), [client]);
}

/** Query keys of the workflow data. */
export const workflowKeys = {
  project: (pid: ID) => ["projects", pid] as const,
  stats: (pid: ID) => ["projects", pid, "stats"] as const,
  myProgress: (pid: ID) => ["projects", pid, "me", "progress"] as const,
  items: (pid: ID, f: ItemFilter) => ["projects", pid, "items", f] as const,
  itemsAll: (pid: ID) => ["projects", pid, "items"] as const,
  criteria: (pid: ID) => ["projects", pid, "criteria"] as const,
};

/**
 * Uploads an NDJSON file of items with XMLHttpRequest, so upload progress can
 * be shown; onProgress gets the fraction sent (0..1). An expired access token
 * is refreshed once.
 */
export async function uploadItems(
  client: ApiClient,
  pid: ID,
  body: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ImportReport> {
  if (!client.currentAccessToken() && client.hasStoredSession()) await client.refresh();
  let res = await xhrPost(`${proj(pid)}/items`, body, client.currentAccessToken(), onProgress, signal);
  if (res.status === 401) {
    const err = await errorFromResponse(res);
    if (err.code !== "token_expired") throw err;
    await client.refresh();
    res = await xhrPost(`${proj(pid)}/items`, body, client.currentAccessToken(), onProgress, signal);
  }
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as ImportReport;
}

function xhrPost(url: string, body: Blob, token: string | null, onProgress: (f: number) => void, signal?: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Content-Type", "application/x-ndjson");
    xhr.setRequestHeader("Accept", "application/json");
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      onProgress(1);
      resolve(new Response(xhr.responseText || null, { status: xhr.status, statusText: xhr.statusText }));
    };
    xhr.onerror = () => reject(new ApiError(0, "network_error", "The upload was interrupted. Check your connection and try again."));
    xhr.onabort = () => reject(new ApiError(0, "aborted", "The upload was cancelled."));
    signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(body);
  });
}
