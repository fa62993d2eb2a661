// Typed calls for the workflow endpoints: projects with schemas, stats,
// items and imports, criteria, the queue and assignments.
import { useMemo } from "react";
import type { Answers } from "./taskSchema";
import type { ApiClient } from "./client";
import type { ResponseBody } from "./contract";
import { useApiClient } from "./context";
import { ApiError, errorFromResponse } from "./errors";
import type { CreateProjectRequest, ID } from "./types";
import type {
  BackgroundImport,
  Claim,
  Criterion,
  CriterionVerdict,
  FlagCategory,
  ImportReport,
  ItemDetailResponse,
  ItemFilter,
  ItemPage,
  MyProgress,
  ProjectDetail,
  ProjectStats,
  QueueStage,
  SubmitBody,
  SubmitResult,
} from "./workflowTypes";

const seg = (id: ID) => encodeURIComponent(id);
const proj = (pid: ID) => `/api/v1/projects/${seg(pid)}`;
/** An assignment's actions live under its project. */
const asg = (pid: ID, aid: ID) => `${proj(pid)}/assignments/${seg(aid)}`;

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
    createProject: (req: CreateProjectRequest) => c.post<ProjectDetail>("/api/v1/projects", req),
    stats: (pid: ID) => c.get<ProjectStats>(`${proj(pid)}/stats`),
    /** The caller's own progress per stage (any member). */
    myProgress: (pid: ID) => c.get<MyProgress>(`${proj(pid)}/me/progress`),
    items: (pid: ID, f: ItemFilter = {}) => c.get<ItemPage>(`${proj(pid)}/items${itemQuery(f)}`),
    item: (pid: ID, iid: ID) => c.get<ItemDetailResponse>(`${proj(pid)}/items/${seg(iid)}`),
    resolveFlag: (pid: ID, iid: ID, action: "return" | "drop", note: string) =>
      c.post<void>(`${proj(pid)}/items/${seg(iid)}/flag`, { action, note }),
    imports: (pid: ID) => c.get<ResponseBody<"listImports">>(`${proj(pid)}/imports`),
    importJob: (pid: ID, id: ID) => c.get<BackgroundImport>(`${proj(pid)}/imports/${seg(id)}`),
    criteria: (pid: ID, status = "pending") => c.get<ResponseBody<"listCriteria">>(`${proj(pid)}/criteria?status=${encodeURIComponent(status)}`),
    reviewCriterion: (pid: ID, cid: ID, status: CriterionVerdict) => c.post<Criterion>(`${proj(pid)}/criteria/${seg(cid)}`, { status }),
    /** The next piece of work, or null when nothing is left (204). */
    next: async (pid: ID, stage: QueueStage) => (await c.post<Claim | undefined>(`${proj(pid)}/queue/next`, { stage })) ?? null,
    /** The piece of work after the caller's current one, claimed ahead (at most two open per stage); null when none. */
    nextAhead: async (pid: ID, stage: QueueStage) => (await c.post<Claim | undefined>(`${proj(pid)}/queue/next`, { stage, prefetch: true })) ?? null,
    saveDraft: (pid: ID, aid: ID, answers: Answers, version: number) => c.put<ResponseBody<"saveDraft">>(`${asg(pid, aid)}/draft`, { answers, version }),
    heartbeat: (pid: ID, aid: ID) => c.post<ResponseBody<"heartbeat">>(`${asg(pid, aid)}/heartbeat`),
    skip: (pid: ID, aid: ID, reason: string) => c.post<void>(`${asg(pid, aid)}/skip`, { reason }),
    flag: (pid: ID, aid: ID, category: FlagCategory, reason: string) => c.post<void>(`${asg(pid, aid)}/flag`, { category, reason }),
    /** Submits; pass the same key when retrying so the server applies it once. */
    submit: (pid: ID, aid: ID, body: SubmitBody, idempotencyKey: string) =>
      c.request<SubmitResult>("POST", `${asg(pid, aid)}/submit`, body, { headers: { "Idempotency-Key": idempotencyKey } }),
  };
}

/**
 * Gives back an assignment claimed ahead and never worked on, as the page is
 * left (`keepalive`, so it survives unload). The server refuses one with a
 * saved draft (409 `has_draft`) or already gone (404); both are fine here.
 */
export function releaseOnLeave(c: ApiClient, pid: ID, aid: ID): Promise<Response | null> {
  return c.sendKeepalive("POST", `${asg(pid, aid)}/release`);
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
  item: (pid: ID, iid: ID) => ["projects", pid, "items", "detail", iid] as const,
  criteria: (pid: ID) => ["projects", pid, "criteria"] as const,
  imports: (pid: ID) => ["projects", pid, "imports"] as const,
};

/**
 * Uploads an NDJSON file of items with XMLHttpRequest, so upload progress can
 * be shown; onProgress gets the fraction sent (0..1). An expired access token
 * is refreshed once. The server imports it before answering.
 */
export async function uploadItems(
  client: ApiClient,
  pid: ID,
  body: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ImportReport> {
  const res = await uploadNdjson(client, `${proj(pid)}/items`, body, onProgress, signal);
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as ImportReport;
}

/** What an asynchronous import request started: a background import to watch, or (from a server that imported at once) its report. */
export type ImportStart = { job: BackgroundImport; location: string } | { report: ImportReport };

/** The longest file name the server keeps with an import. */
export const IMPORT_FILENAME_MAX = 255;

/** The query string of a background import: `async=true`, and the file's base name when there is one. */
export function asyncImportQuery(filename?: string): string {
  const q = new URLSearchParams({ async: "true" });
  const base = (filename ?? "").split(/[\\/]/).pop()!.trim();
  if (base) q.set("filename", Array.from(base).slice(0, IMPORT_FILENAME_MAX).join(""));
  return `?${q.toString()}`;
}

/**
 * Uploads an NDJSON file of items for a background import
 * (`POST …/items?async=true&filename=…`), with upload progress as
 * uploadItems. The server stores the file and answers 202 with the import to
 * poll. The file's name is sent so the list of imports can show it.
 */
export async function uploadItemsAsync(
  client: ApiClient,
  pid: ID,
  body: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  filename = body instanceof File ? body.name : undefined,
): Promise<ImportStart> {
  const res = await uploadNdjson(client, `${proj(pid)}/items${asyncImportQuery(filename)}`, body, onProgress, signal);
  if (!res.ok) throw await errorFromResponse(res);
  if (res.status === 202) {
    const job = (await res.json()) as BackgroundImport;
    return { job, location: importLocation(res.headers.get("Location"), pid, job.id) };
  }
  return { report: (await res.json()) as ImportReport };
}

/** The URL to poll: the server's Location when it is one of ours, else the import's path. */
export function importLocation(location: string | null, pid: ID, id: ID): string {
  return location && location.startsWith("/api/v1/") ? location : `${proj(pid)}/imports/${seg(id)}`;
}

const finished = (job: BackgroundImport) => job.status === "done" || job.status === "failed";

/**
 * Polls a background import every `everyMs` until it is done or failed and
 * returns it in that state; onUpdate sees each state on the way. Stops with
 * an "aborted" error when the signal fires.
 */
export async function watchImport(
  client: ApiClient,
  location: string,
  first: BackgroundImport,
  onUpdate: (job: BackgroundImport) => void,
  { everyMs = 500, signal }: { everyMs?: number; signal?: AbortSignal } = {},
): Promise<BackgroundImport> {
  let job = first;
  onUpdate(job);
  while (!finished(job)) {
    await sleep(everyMs, signal);
    job = await client.get<BackgroundImport>(location);
    if (signal?.aborted) throw new ApiError(0, "aborted", "Stopped watching the import.");
    onUpdate(job);
  }
  return job;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ApiError(0, "aborted", "Stopped watching the import."));
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(new ApiError(0, "aborted", "Stopped watching the import."));
      },
      { once: true },
    );
  });
}

async function uploadNdjson(client: ApiClient, url: string, body: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<Response> {
  if (!client.currentAccessToken() && client.hasStoredSession()) await client.refresh();
  let res = await xhrPost(url, body, client.currentAccessToken(), onProgress, signal);
  if (res.status === 401) {
    const err = await errorFromResponse(res.clone());
    if (err.code !== "token_expired") return res;
    await client.refresh();
    res = await xhrPost(url, body, client.currentAccessToken(), onProgress, signal);
  }
  return res;
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
      const headers = new Headers();
      const location = xhr.getResponseHeader("Location");
      if (location) headers.set("Location", location);
      const ct = xhr.getResponseHeader("Content-Type");
      if (ct) headers.set("Content-Type", ct);
      resolve(new Response(xhr.responseText || null, { status: xhr.status, statusText: xhr.statusText, headers }));
    };
    xhr.onerror = () => reject(new ApiError(0, "network_error", "The upload was interrupted. Check your connection and try again."));
    xhr.onabort = () => reject(new ApiError(0, "aborted", "The upload was cancelled."));
    signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(body);
  });
}
