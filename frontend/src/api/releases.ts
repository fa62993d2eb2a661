// Typed calls for releases: start one, list them, poll one, and short-lived
// download links (a browser cannot send its bearer token with a download).
import { useMemo } from "react";
import type { ApiClient } from "./client";
import { useApiClient } from "./context";
import type { ID } from "./types";

export type ReleaseStatus = "queued" | "running" | "done" | "failed";

export interface ReleaseSummary {
  records: number;
  by_split: Record<string, number>;
  by_provenance: Record<string, number>;
  /** Records per item language ("und": none); absent when no released item has a language. */
  by_language?: Record<string, number>;
  files: number;
  bytes: number;
}

export interface ReleaseFile {
  path: string;
  format: string;
  bytes: number;
  sha256: string;
  records: number;
}

export interface Release {
  id: ID;
  name: string;
  status: ReleaseStatus;
  formats: string[];
  options: Record<string, unknown>;
  schema_version: number;
  progress: { records: number; total: number };
  error?: string;
  summary?: ReleaseSummary;
  manifest?: { files: ReleaseFile[] };
  created_by: ID;
  created_at: string;
  updated_at: string;
  finished_at?: string;
}

export interface ReleaseRequest {
  name: string;
  formats: string[];
  options: Record<string, unknown>;
}

export interface ReleaseLinks {
  archive: string;
  files: { path: string; url: string; bytes: number; sha256: string }[];
  expires_at: string;
}

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

const proj = (pid: ID) => `/api/v1/projects/${encodeURIComponent(pid)}/releases`;

export function releasesApi(c: ApiClient) {
  return {
    list: (pid: ID) => c.get<{ items: Release[] }>(proj(pid)).then((r) => r.items),
    get: (pid: ID, rid: ID) => c.get<Release>(`${proj(pid)}/${encodeURIComponent(rid)}`),
    create: (pid: ID, req: ReleaseRequest) => c.post<Release>(proj(pid), req),
    links: (pid: ID, rid: ID) => c.get<ReleaseLinks>(`${proj(pid)}/${encodeURIComponent(rid)}/links`),
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
