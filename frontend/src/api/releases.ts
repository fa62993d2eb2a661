// Typed calls for releases: start one, list them, poll one, and short-lived
// download links (a browser cannot send its bearer token with a download).
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

/** The formats a release can write, in the order the server documents them. */
export const releaseFormats: { name: string; label: string }[] = [
  { name: "jsonl", label: "JSONL (canonical records)" },
  { name: "csv", label: "CSV (one column per question)" },
  { name: "hf", label: "Hugging Face parquet + dataset card" },
  { name: "d3omni", label: "D3-Omni" },
  { name: "omnireward", label: "Omni-Reward" },
  { name: "judgeanything", label: "Judge-Anything" },
  { name: "robojudge", label: "RoboJudge" },
  { name: "storybench", label: "StoryBench" },
];

export function releasesApi(c: ApiClient) {
  const at = (pid: ID, rid: ID) => ({ path: { pid, rid } });
  return {
    list: (pid: ID) => c.get("/projects/{pid}/releases", { path: { pid } }).then((r) => r.items),
    get: (pid: ID, rid: ID) => c.get("/projects/{pid}/releases/{rid}", at(pid, rid)),
    create: (pid: ID, req: ReleaseRequest) => c.post("/projects/{pid}/releases", { path: { pid }, body: req }),
    links: (pid: ID, rid: ID) => c.get("/projects/{pid}/releases/{rid}/links", at(pid, rid)),
  };
}

export function useReleasesApi() {
  const c = useApiClient();
  return useMemo(() => releasesApi(c), [c]);
}

export const releaseKeys = {
  list: (pid: ID) => ["projects", pid, "releases"] as const,
};

/** Whether a release is still being written. */
export const releaseActive = (r: Release) => r.status === "queued" || r.status === "running";
