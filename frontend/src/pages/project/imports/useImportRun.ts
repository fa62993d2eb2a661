// One NDJSON import as the import forms run it: the upload with its progress,
// then a background import on the server polled until its report is ready.
import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError, useApiClient } from "../../../api";
import { watchImport, workflowKeys, type ImportStart } from "../../../api/workflow";
import type { BackgroundImport, ImportReport } from "../../../api/workflowTypes";

/** How often a running background import is polled. */
export const POLL_MS = 500;

/** Where a run is: idle, uploading (the fraction sent), or importing on the server. */
export type ImportPhase = { kind: "idle" } | { kind: "uploading"; fraction: number } | { kind: "importing"; job: BackgroundImport };

/** Sends the file: onProgress gets the fraction sent, the signal cancels. */
export type Upload<T> = (onProgress: (fraction: number) => void, signal: AbortSignal) => Promise<T>;

/**
 * The state of an import form's run. `run(upload, now)` uploads with
 * `upload` (a background import, or a report when the server imported at
 * once) and polls the background import until it is done; a server without
 * background jobs (`unavailable`) is sent the file again with `now`, which
 * imports in the request. onImported sees each report.
 */
export function useImportRun(pid: string, { pollMs = POLL_MS, onImported }: { pollMs?: number; onImported?: (report: ImportReport) => void } = {}) {
  const client = useApiClient();
  const qc = useQueryClient();
  const [phase, setPhase] = useState<ImportPhase>({ kind: "idle" });
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  function imported(rep: ImportReport) {
    setReport(rep);
    onImported?.(rep);
  }

  async function run(upload: Upload<ImportStart>, now?: Upload<ImportReport>) {
    setReport(null);
    setError(null);
    setPhase({ kind: "uploading", fraction: 0 });
    const ctl = new AbortController();
    abort.current = ctl;
    const onProgress = (fraction: number) => setPhase({ kind: "uploading", fraction });
    try {
      let started: ImportStart;
      try {
        started = await upload(onProgress, ctl.signal);
      } catch (err) {
        // A server without background jobs: import in the request instead.
        if (!now || !(err instanceof ApiError && err.code === "unavailable")) throw err;
        setPhase({ kind: "uploading", fraction: 0 });
        started = { report: await now(onProgress, ctl.signal) };
      }
      if ("report" in started) {
        imported(started.report);
        return;
      }
      void qc.invalidateQueries({ queryKey: workflowKeys.imports(pid) });
      const job = await watchImport(client, started.location, started.job, (j) => setPhase({ kind: "importing", job: j }), { everyMs: pollMs, signal: ctl.signal });
      void qc.invalidateQueries({ queryKey: workflowKeys.imports(pid) });
      if (job.status === "failed" || !job.report) throw new Error(job.error || "The server could not import the file.");
      imported(job.report);
    } catch (err) {
      setError(err);
    } finally {
      if (abort.current === ctl) {
        abort.current = null;
        setPhase({ kind: "idle" });
      }
    }
  }

  return {
    phase,
    busy: phase.kind !== "idle",
    report,
    error,
    run,
    /** Cancels the upload or stops watching the import. */
    cancel: () => abort.current?.abort(),
    /** Forgets the last report (a new file was picked). */
    clear: () => setReport(null),
  };
}
