// Typed calls for releases: the formats a release can write, start one, list
// them, poll one, and short-lived download links (a browser cannot send its
// bearer token with a download).
import { useMemo } from "react";
import type { ApiClient } from "./client";
import { useApiClient } from "./context";
import type { Component } from "./contract";
import type { ID } from "./types";

/** A release: what it was asked for, its progress, and once done its summary and manifest. */
export type Release = Component<"Release">;
export type ReleaseStatus = Release["status"];
export type ReleaseSummary = Component<"ReleaseSummary">;
export type ReleaseFile = Component<"ReleaseManifest">["files"][number];
export type ReleaseRequest = Component<"ReleaseRequest">;
/** Signed, short-lived download links of a done release. */
export type ReleaseLinks = Component<"ReleaseLinks">;

/** One format a release can write, as GET /formats lists it: its name, what it writes, its own options. */
export type ExportFormat = Component<"FormatInfo">;

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

/** The formats the server writes, in its order. */
function listFormats(c: ApiClient): Promise<ExportFormat[]> {
  return c.get("/formats").then((r) => r.formats);
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
