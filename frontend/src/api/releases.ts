// Typed calls for releases: the formats a release can write, start one, list
// them, poll one, and short-lived download links (a browser cannot send its
// bearer token with a download).
import { useMemo } from "react";
import type { ApiClient } from "./client";
import { useApiClient } from "./context";
import type { Component } from "./contract";
import { API_PREFIX } from "./paths";
import type { ID } from "./types";

/** A release: what it was asked for, its progress, and once done its summary and manifest. */
export type Release = Component<"Release">;
export type ReleaseStatus = Release["status"];
export type ReleaseSummary = Component<"ReleaseSummary">;
export type ReleaseFile = Component<"ReleaseManifest">["files"][number];
export type ReleaseRequest = Component<"ReleaseRequest">;
/** Signed, short-lived download links of a done release. */
export type ReleaseLinks = Component<"ReleaseLinks">;

/** One format a release can write, as GET /formats lists it. */
export interface ExportFormat {
  /** The name a release request gives it, e.g. "jsonl". */
  name: string;
  /** What the format writes and where. */
  description: string;
  /** The option keys that belong to this format alone. */
  options: string[];
}

export function releasesApi(c: ApiClient) {
  const at = (pid: ID, rid: ID) => ({ path: { pid, rid } });
  return {
    list: (pid: ID) => c.get("/projects/{pid}/releases", { path: { pid } }).then((r) => r.items),
    get: (pid: ID, rid: ID) => c.get("/projects/{pid}/releases/{rid}", at(pid, rid)),
    create: (pid: ID, req: ReleaseRequest) => c.post("/projects/{pid}/releases", { path: { pid }, body: req }),
    links: (pid: ID, rid: ID) => c.get("/projects/{pid}/releases/{rid}/links", at(pid, rid)),
    formats: () => listFormats(c),
  };
}

/**
 * The formats the server writes, in its order. note: docs/openapi.yaml does
 * not describe GET /formats yet, so the answer's shape is written here:
 * `{"formats": [{"name": "jsonl", "description": "…", "options": ["…"]}]}`.
 * Once the document has the route this is `c.get("/formats")` and
 * ExportFormat an alias of the generated schema.
 */
function listFormats(c: ApiClient): Promise<ExportFormat[]> {
  return c.getUrl<{ formats: ExportFormat[] }>(`${API_PREFIX}/formats`).then((r) => r.formats);
}

export function useReleasesApi() {
  const c = useApiClient();
  return useMemo(() => releasesApi(c), [c]);
}

export const releaseKeys = {
  list: (pid: ID) => ["projects", pid, "releases"] as const,
  formats: ["formats"] as const,
};

/** Whether a release is still being written. */
export const releaseActive = (r: Release) => r.status === "queued" || r.status === "running";
