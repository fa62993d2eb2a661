// Typed calls for setting a project up and keeping it configured: the dry-run
// check of a setup, schema versions, feasibility of the policy, stuck work,
// archive and delete, edits, and imports of items with a media archive.
import { useMemo } from "react";
import type { ApiClient } from "./client";
import type { RequestBody, ResponseBody } from "./contract";
import { useApiClient } from "./context";
import { ApiError } from "./errors";
import type { ID } from "./types";
import type { ImportReport, ProjectDetail } from "./workflowTypes";

/** The body of POST /schemas/validate (the body of a project creation; the name may be left out). */
export type SetupRequest = RequestBody<"validateSetup">;
export type SetupCheck = ResponseBody<"validateSetup">;
export type SchemaVersion = ResponseBody<"listSchemaVersions">[number];
export type Feasibility = ResponseBody<"projectFeasibility">;
export type FeasibilityWarning = Feasibility["warnings"][number];
export type StuckStage = ResponseBody<"stuckWork">["stages"][number];
export type ProjectPatch = RequestBody<"patchProject">;

const seg = (id: ID) => encodeURIComponent(id);
const proj = (pid: ID) => `/api/v1/projects/${seg(pid)}`;

export function setupApi(c: ApiClient) {
  return {
    /** Checks a setup exactly as creation would: valid, or `valid: false` with the problems by path. */
    validate: (req: SetupRequest) => c.post<SetupCheck>("/api/v1/schemas/validate", req),
    patch: (pid: ID, req: ProjectPatch) => c.request<ProjectDetail>("PATCH", proj(pid), req),
    schemaVersions: (pid: ID) => c.get<SchemaVersion[]>(`${proj(pid)}/schemas`),
    feasibility: (pid: ID) => c.get<Feasibility>(`${proj(pid)}/feasibility`),
    stuck: (pid: ID) => c.get<ResponseBody<"stuckWork">>(`${proj(pid)}/stuck`),
    archive: (pid: ID, archived: boolean) => c.post<ResponseBody<"archiveProject">>(`${proj(pid)}/archive`, { archived }),
    /** Deletes the project; `confirm` must be its exact name. */
    remove: (pid: ID, confirm: string) => c.request<void>("DELETE", proj(pid), { confirm }),
    /** Imports items whose media paths name files of a zip archive (multipart, answered when done). */
    importArchive: (pid: ID, media: Blob, items: Blob) => importArchive(c, pid, media, items),
  };
}

export type SetupApi = ReturnType<typeof setupApi>;

export function useSetupApi(): SetupApi {
  const client = useApiClient();
  return useMemo(() => setupApi(client), [client]);
}

/** Query keys of setup data, under the project's key so that a project change refreshes them. */
export const setupKeys = {
  schemaVersions: (pid: ID) => ["projects", pid, "schemas"] as const,
  /** Under the members' key: a member change (which invalidates that key) checks again. */
  feasibility: (pid: ID) => ["projects", pid, "members", "feasibility"] as const,
  stuck: (pid: ID) => ["projects", pid, "stuck"] as const,
};

function importArchive(c: ApiClient, pid: ID, media: Blob, items: Blob): Promise<ImportReport> {
  const form = new FormData();
  form.append("media", media, media instanceof File ? media.name : "media.zip");
  form.append("items", items, items instanceof File ? items.name : "items.jsonl");
  return c.post<ImportReport>(`${proj(pid)}/items`, form);
}

/** Whether an error is the 409 of a project without a schema (nothing to check yet). */
export const noSchema = (err: unknown) => err instanceof ApiError && err.status === 409;
