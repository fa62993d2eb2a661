// Typed calls for setting a project up and keeping it configured: the dry-run
// check of a setup, schema versions, feasibility of the policy, stuck work,
// archive and delete, edits, and imports of items with a media archive.
import { useMemo } from "react";
import type { ApiClient } from "./client";
import type { RequestBody, ResponseBody } from "./contract";
import { useApiClient } from "./context";
import { ApiError } from "./errors";
import type { ID } from "./types";
import { poolQuery } from "./workflow";
import type { ImportPool, ImportReport } from "./workflowTypes";

/** The body of POST /schemas/validate (the body of a project creation; the name may be left out). */
export type SetupRequest = RequestBody<"validateSetup">;
export type SetupCheck = ResponseBody<"validateSetup">;
export type SchemaVersion = ResponseBody<"listSchemaVersions">[number];
export type Feasibility = ResponseBody<"projectFeasibility">;
export type FeasibilityWarning = Feasibility["warnings"][number];
export type StuckStage = ResponseBody<"stuckWork">["stages"][number];
/** A member who may be given one piece of stuck work. */
export type StuckCandidate = ResponseBody<"stuckCandidates">["candidates"][number];
export type StuckAssign = RequestBody<"assignStuckWork">;
export type StuckAssignResult = ResponseBody<"assignStuckWork">;
export type ProjectPatch = RequestBody<"patchProject">;

export function setupApi(c: ApiClient) {
  const at = (pid: ID) => ({ path: { pid } });
  return {
    /** Checks a setup exactly as creation would: valid, or `valid: false` with the problems by path. */
    validate: (req: SetupRequest) => c.post("/schemas/validate", { body: req }),
    patch: (pid: ID, req: ProjectPatch) => c.patch("/projects/{pid}", { ...at(pid), body: req }),
    schemaVersions: (pid: ID) => c.get("/projects/{pid}/schemas", at(pid)),
    feasibility: (pid: ID) => c.get("/projects/{pid}/feasibility", at(pid)),
    stuck: (pid: ID) => c.get("/projects/{pid}/stuck", at(pid)),
    /** Who may be given one waiting item (for reviews, one waiting label). */
    stuckCandidates: (pid: ID, stage: StuckStage["stage"], id: ID) => c.get("/projects/{pid}/stuck/candidates", { ...at(pid), query: { stage, id } }),
    /** Hands one piece of stuck work to a named person. */
    assignStuck: (pid: ID, req: StuckAssign) => c.post("/projects/{pid}/stuck/assign", { ...at(pid), body: req }),
    archive: (pid: ID, archived: boolean) => c.post("/projects/{pid}/archive", { ...at(pid), body: { archived } }),
    /** Deletes the project; `confirm` must be its exact name. */
    remove: (pid: ID, confirm: string) => c.delete("/projects/{pid}", { ...at(pid), body: { confirm } }),
    /** Imports items whose media paths name files of a zip archive (multipart, answered when done). */
    importArchive: (pid: ID, media: Blob, items: Blob, pool: ImportPool = "production") => importArchive(c, pid, media, items, pool),
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
  stuckCandidates: (pid: ID, stage: string, id: ID) => ["projects", pid, "stuck", "candidates", stage, id] as const,
};

function importArchive(c: ApiClient, pid: ID, media: Blob, items: Blob, pool: ImportPool): Promise<ImportReport> {
  const form = new FormData();
  form.append("media", media, media instanceof File ? media.name : "media.zip");
  form.append("items", items, items instanceof File ? items.name : "items.jsonl");
  // note: a multipart import is done before the server answers (200); only async=true answers 202
  return c.post("/projects/{pid}/items", { path: { pid }, query: poolQuery(pool), body: form }) as Promise<ImportReport>;
}

/** Whether an error is the 409 of a project without a schema (nothing to check yet). */
export const noSchema = (err: unknown) => err instanceof ApiError && err.status === 409;
