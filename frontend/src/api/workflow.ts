// Typed calls for the workflow endpoints: projects with schemas, stats,
// items and imports, criteria, the queue and assignments.
import { useMemo } from "react";
import type { Answers } from "./taskSchema";
import type { ApiClient } from "./client";
import type { QueryParams } from "./contract";
import { useApiClient } from "./context";
import { ApiError, errorFromResponse } from "./errors";
import { API_PREFIX, queryString, routeUrl } from "./paths";
import type { CreateProjectRequest, ID } from "./types";
import type { BackgroundImport, CriterionVerdict, FlagCategory, ImportPool, ImportReport, ItemFilter, QueueStage, SubmitBody } from "./workflowTypes";

/** The query of a filter: its set fields (an empty text or a limit of 0 is not set). */
function itemParams(f: ItemFilter): ItemFilter {
  return { stage: f.stage || undefined, flagged: f.flagged, external_id: f.external_id || undefined, cursor: f.cursor || undefined, limit: f.limit || undefined };
}

/** The query that sends an import to its pool: `pool=calibration`, or nothing for production. */
export function poolQuery(pool: ImportPool): { pool?: "calibration" } {
  return pool === "calibration" ? { pool: "calibration" } : {};
}

/** Which criteria to list: one status, or "" for every status. */
type CriterionFilter = NonNullable<QueryParams<"listCriteria">["status"]>;

export function workflowApi(c: ApiClient) {
  const asg = (pid: ID, aid: ID) => ({ path: { pid, aid } });
  return {
    project: (pid: ID) => c.get("/projects/{pid}", { path: { pid } }),
    createProject: (req: CreateProjectRequest) => c.post("/projects", { body: req }),
    stats: (pid: ID) => c.get("/projects/{pid}/stats", { path: { pid } }),
    /** The caller's own progress per stage (any member). */
    myProgress: (pid: ID) => c.get("/projects/{pid}/me/progress", { path: { pid } }),
    /** The caller's own labels a reviewer rejected, with the reasons (any member). */
    myRejections: (pid: ID) => c.get("/projects/{pid}/me/rejections", { path: { pid } }),
    items: (pid: ID, f: ItemFilter = {}) => c.get("/projects/{pid}/items", { path: { pid }, query: itemParams(f) }),
    item: (pid: ID, iid: ID) => c.get("/projects/{pid}/items/{iid}", { path: { pid, iid } }),
    resolveFlag: (pid: ID, iid: ID, action: "return" | "drop", note: string) =>
      c.post("/projects/{pid}/items/{iid}/flag", { path: { pid, iid }, body: { action, note } }),
    /** The import format of production items or of the calibration pool, with example lines. */
    itemSample: (pid: ID, pool: ImportPool) => c.get("/projects/{pid}/items/sample", { path: { pid }, query: poolQuery(pool) }),
    imports: (pid: ID) => c.get("/projects/{pid}/imports", { path: { pid } }),
    importJob: (pid: ID, imid: ID) => c.get("/projects/{pid}/imports/{imid}", { path: { pid, imid } }),
    criteria: (pid: ID, status: CriterionFilter = "pending") => c.get("/projects/{pid}/criteria", { path: { pid }, query: { status } }),
    reviewCriterion: (pid: ID, cid: ID, status: CriterionVerdict) => c.post("/projects/{pid}/criteria/{cid}", { path: { pid, cid }, body: { status } }),
    /** The next piece of work, or null when nothing is left (204). */
    next: async (pid: ID, stage: QueueStage) => (await c.post("/projects/{pid}/queue/next", { path: { pid }, body: { stage } })) ?? null,
    /** The piece of work after the caller's current one, claimed ahead (at most two open per stage); null when none. */
    nextAhead: async (pid: ID, stage: QueueStage) =>
      (await c.post("/projects/{pid}/queue/next", { path: { pid }, body: { stage, prefetch: true } })) ?? null,
    saveDraft: (pid: ID, aid: ID, answers: Answers, version: number) =>
      c.put("/projects/{pid}/assignments/{aid}/draft", { ...asg(pid, aid), body: { answers, version } }),
    heartbeat: (pid: ID, aid: ID) => c.post("/projects/{pid}/assignments/{aid}/heartbeat", asg(pid, aid)),
    skip: (pid: ID, aid: ID, reason: string) => c.post("/projects/{pid}/assignments/{aid}/skip", { ...asg(pid, aid), body: { reason } }),
    flag: (pid: ID, aid: ID, category: FlagCategory, reason: string) =>
      c.post("/projects/{pid}/assignments/{aid}/flag", { ...asg(pid, aid), body: { category, reason } }),
    /** Submits; pass the same key when retrying so the server applies it once. */
    submit: (pid: ID, aid: ID, body: SubmitBody, idempotencyKey: string) =>
      c.post("/projects/{pid}/assignments/{aid}/submit", { ...asg(pid, aid), body, headers: { "Idempotency-Key": idempotencyKey } }),
  };
}

/**
 * Gives back an assignment claimed ahead and never worked on, as the page is
 * left (`keepalive`, so it survives unload). The server refuses one with a
 * saved draft (409 `has_draft`) or already gone (404); both are fine here.
 */
export function releaseOnLeave(c: ApiClient, pid: ID, aid: ID): Promise<Response | null> {
  return c.sendKeepalive("/projects/{pid}/assignments/{aid}/release", { path: { pid, aid } });
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
  myRejections: (pid: ID) => ["projects", pid, "me", "rejections"] as const,
  items: (pid: ID, f: ItemFilter) => ["projects", pid, "items", f] as const,
  itemsAll: (pid: ID) => ["projects", pid, "items"] as const,
  item: (pid: ID, iid: ID) => ["projects", pid, "items", "detail", iid] as const,
  criteria: (pid: ID) => ["projects", pid, "criteria"] as const,
  imports: (pid: ID) => ["projects", pid, "imports"] as const,
  itemSample: (pid: ID, pool: ImportPool) => ["projects", pid, "items", "sample", pool] as const,
};

/**
 * Uploads an NDJSON file of items with XMLHttpRequest, so upload progress can
 * be shown; onProgress gets the fraction sent (0..1). An expired access token
 * is refreshed once. The server imports it before answering, into the
 * calibration pool when that pool is given.
 */
export async function uploadItems(
  client: ApiClient,
  pid: ID,
  body: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  pool: ImportPool = "production",
): Promise<ImportReport> {
  const res = await uploadNdjson(client, client.url("post", "/projects/{pid}/items", { path: { pid }, query: poolQuery(pool) }), body, onProgress, signal);
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as ImportReport;
}

/** What an asynchronous import request started: a background import to watch, or (from a server that imported at once) its report. */
export type ImportStart = { job: BackgroundImport; location: string } | { report: ImportReport };

/** The longest file name the server keeps with an import. */
export const IMPORT_FILENAME_MAX = 255;

/** The query of a background import: `async=true`, and the file's base name when there is one. */
export function asyncImportParams(filename?: string): { async: true; filename?: string } {
  const base = (filename ?? "").split(/[\\/]/).pop()!.trim();
  return base ? { async: true, filename: Array.from(base).slice(0, IMPORT_FILENAME_MAX).join("") } : { async: true };
}

/** The query string of a background import, e.g. "?async=true&filename=items.jsonl". */
export const asyncImportQuery = (filename?: string) => queryString(asyncImportParams(filename));

/**
 * Uploads an NDJSON file of items for a background import
 * (`POST …/items?async=true&filename=…`), with upload progress as
 * uploadItems. The server stores the file and answers 202 with the import to
 * poll. The file's name is sent so the list of imports can show it.
 */
export function uploadItemsAsync(
  client: ApiClient,
  pid: ID,
  body: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  filename = body instanceof File ? body.name : undefined,
): Promise<ImportStart> {
  return uploadAsync(client, "/projects/{pid}/items", pid, body, onProgress, signal, filename);
}

/**
 * Uploads an NDJSON file of model predictions for existing items
 * (`POST …/predictions`), with upload progress as uploadItems. The server
 * imports it before answering.
 */
export async function uploadPredictions(client: ApiClient, pid: ID, body: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ImportReport> {
  const res = await uploadNdjson(client, client.url("post", "/projects/{pid}/predictions", { path: { pid } }), body, onProgress, signal);
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as ImportReport;
}

/** Uploads an NDJSON file of model predictions for a background import (`POST …/predictions?async=true&filename=…`), as uploadItemsAsync. */
export function uploadPredictionsAsync(
  client: ApiClient,
  pid: ID,
  body: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  filename = body instanceof File ? body.name : undefined,
): Promise<ImportStart> {
  return uploadAsync(client, "/projects/{pid}/predictions", pid, body, onProgress, signal, filename);
}

/** Uploads an NDJSON file to one of the two import paths as a background import. */
async function uploadAsync(
  client: ApiClient,
  path: "/projects/{pid}/items" | "/projects/{pid}/predictions",
  pid: ID,
  body: Blob,
  onProgress: (fraction: number) => void,
  signal: AbortSignal | undefined,
  filename: string | undefined,
): Promise<ImportStart> {
  const url = client.url("post", path, { path: { pid }, query: asyncImportParams(filename) });
  return importStarted(await uploadNdjson(client, url, body, onProgress, signal), pid);
}

/** What an asynchronous import request answered: 202 with the import to watch, or the report of an import done at once. */
async function importStarted(res: Response, pid: ID): Promise<ImportStart> {
  if (!res.ok) throw await errorFromResponse(res);
  if (res.status === 202) {
    const job = (await res.json()) as BackgroundImport;
    return { job, location: importLocation(res.headers.get("Location"), pid, job.id) };
  }
  return { report: (await res.json()) as ImportReport };
}

/** The URL to poll: the server's Location when it is one of ours, else the import's path. */
export function importLocation(location: string | null, pid: ID, imid: ID): string {
  return location && location.startsWith(`${API_PREFIX}/`) ? location : routeUrl("/projects/{pid}/imports/{imid}", { path: { pid, imid } });
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
    job = await client.getUrl<BackgroundImport>(location);
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
