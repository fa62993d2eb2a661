import { useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../../api";
import { uploadItems, uploadItemsAsync, useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { BackgroundImport, ImportPool } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";
import { ImportProgress, ImportResult } from "../imports/ImportResult";
import { POLL_MS, useImportRun } from "../imports/useImportRun";

export { ImportResult };

/** Where an import puts its items, as the import forms offer it. */
export function PoolChoice({ name, pool, onChange }: { name: string; pool: ImportPool; onChange: (pool: ImportPool) => void }) {
  return (
    <fieldset className="pool-choice">
      <legend>Import into</legend>
      <label>
        <input type="radio" name={name} checked={pool === "production"} onChange={() => onChange("production")} /> Production items
      </label>
      <label>
        <input type="radio" name={name} checked={pool === "calibration"} onChange={() => onChange("calibration")} /> Calibration pool{" "}
        <span className="muted">(only calibration rounds use it; gold answers under ground_truth)</span>
      </label>
    </fieldset>
  );
}

/**
 * Import items from an NDJSON file or pasted lines (useImportRun): the file is
 * uploaded (first progress bar) for a background import on the server, which
 * is polled (second progress bar) until its line-by-line report is ready. A
 * server without background jobs imports at once instead, and so does an
 * import into the calibration pool.
 */
export function ImportCard({
  pid,
  pollMs = POLL_MS,
  pool: shownPool,
  onPool,
}: {
  pid: string;
  pollMs?: number;
  pool?: ImportPool;
  onPool?: (pool: ImportPool) => void;
}) {
  const client = useApiClient();
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [ownPool, setOwnPool] = useState<ImportPool>("production");
  const pool = shownPool ?? ownPool;
  const [file, setFile] = useState<File | null>(null);
  const [pasting, setPasting] = useState(false);
  const [text, setText] = useState("");
  const imports = useImportRun(pid, {
    pollMs,
    onImported: () => {
      void qc.invalidateQueries({ queryKey: workflowKeys.itemsAll(pid) });
      void qc.invalidateQueries({ queryKey: workflowKeys.stats(pid) });
    },
  });
  const { phase, busy, report, error } = imports;

  const source = pasting ? (text.trim() ? new File([text.endsWith("\n") ? text : text + "\n"], "pasted.jsonl", { type: "application/x-ndjson" }) : null) : file;

  function start() {
    const body = source;
    if (!body) return;
    if (pool === "calibration") {
      // note: the server imports into the pool in the request, never in the background
      void imports.run(async (onProgress, signal) => ({ report: await uploadItems(client, pid, body, onProgress, signal, pool) }));
      return;
    }
    void imports.run(
      (onProgress, signal) => uploadItemsAsync(client, pid, body, onProgress, signal, body.name),
      (onProgress, signal) => uploadItems(client, pid, body, onProgress, signal),
    );
  }

  const name = source?.name ?? "the file";
  return (
    <div className="card import-card" data-pool={pool}>
      <h2 className="card-title">Import items</h2>
      <p className="muted">
        One JSON object per line with <code>external_id</code> and <code>inputs</code> (the keys are listed under Import format). Re-importing an external id
        updates it.
      </p>
      <PoolChoice
        name="import-pool"
        pool={pool}
        onChange={(p) => {
          (onPool ?? setOwnPool)(p);
          imports.clear();
        }}
      />
      <div className="import-source" role="group" aria-label="Lines from">
        <label>
          <input type="radio" name="import-source" checked={!pasting} onChange={() => setPasting(false)} /> A file
        </label>
        <label>
          <input type="radio" name="import-source" checked={pasting} onChange={() => setPasting(true)} /> Pasted lines
        </label>
      </div>
      {pasting && (
        <textarea
          className="import-paste"
          aria-label="Lines to import"
          rows={6}
          value={text}
          onChange={(e) => (setText(e.target.value), imports.clear())}
          placeholder={'{"external_id": "item-1", "inputs": {…}}'}
        />
      )}
      <div className="import-row">
        {!pasting && (
          <input
            ref={input}
            type="file"
            accept=".jsonl,.ndjson,application/x-ndjson,application/json"
            aria-label="Items file"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              imports.clear();
            }}
          />
        )}
        <button type="button" className="btn btn-primary" disabled={!source || busy} onClick={start}>
          {pool === "calibration" ? "Import into the calibration pool" : "Import"}
        </button>
        {phase.kind === "uploading" && (
          <button type="button" className="btn btn-ghost" onClick={imports.cancel}>
            Cancel
          </button>
        )}
      </div>
      <ImportProgress phase={phase} name={name} />
      <ErrorMessage error={error} title="The import failed." />
      {report && <ImportResult report={report} />}
      <RecentImports pid={pid} />
    </div>
  );
}

const STATUS: Record<BackgroundImport["status"], string> = { queued: "Queued", running: "Running", done: "Done", failed: "Failed" };
const SHOWN = 10;

/** The project's recent background imports, newest first; refreshed while one is running. */
function RecentImports({ pid }: { pid: string }) {
  const api = useWorkflowApi();
  const list = useQuery({
    queryKey: workflowKeys.imports(pid),
    queryFn: () => api.imports(pid),
    refetchInterval: (q) => (q.state.data?.items.some((j) => j.status === "queued" || j.status === "running") ? 2000 : false),
  });
  const [open, setOpen] = useState<string | null>(null);
  const [all, setAll] = useState(false);
  const items = list.data?.items ?? [];
  if (list.error) return <ErrorMessage error={list.error} title="Could not list recent imports." />;
  if (!items.length) return null;
  const shown = all ? items : items.slice(0, SHOWN);
  return (
    <div className="recent-imports">
      <h3 className="recent-title">Recent imports</h3>
      <table className="table recent-table" aria-label="Recent imports">
        <thead>
          <tr>
            <th>Started</th>
            <th>File</th>
            <th>Kind</th>
            <th>Status</th>
            <th className="num-col">Size</th>
            <th>Result</th>
            <th className="cell-actions" />
          </tr>
        </thead>
        <tbody>
          {shown.map((j) => (
            <RecentRow key={j.id} job={j} open={open === j.id} onToggle={() => setOpen(open === j.id ? null : j.id)} />
          ))}
        </tbody>
      </table>
      {items.length > SHOWN && (
        <button type="button" className="link-btn" onClick={() => setAll(!all)}>
          {all ? "Show fewer" : `Show all ${items.length}`}
        </button>
      )}
    </div>
  );
}

function RecentRow({ job, open, onToggle }: { job: BackgroundImport; open: boolean; onToggle: () => void }) {
  const r = job.report;
  return (
    <>
      <tr data-import={job.id} data-status={job.status}>
        <td>{formatDateTime(job.created_at)}</td>
        <td className="import-file" title={job.filename || undefined}>
          {job.filename || <span className="muted">—</span>}
        </td>
        <td>{job.kind}</td>
        <td>
          <span className={`import-status import-${job.status}`}>{STATUS[job.status] ?? job.status}</span>
          {(job.status === "running" || job.status === "queued") && <span className="muted"> {Math.floor(job.percent)}%</span>}
        </td>
        <td className="num-col">{formatBytes(job.bytes_total)}</td>
        <td>
          {r
            ? `${r.imported.toLocaleString()} imported, ${r.updated.toLocaleString()} updated, ${r.unchanged.toLocaleString()} unchanged, ${r.errors.length.toLocaleString()} with errors`
            : job.error
              ? <span className="import-error">{job.error}</span>
              : `${job.lines_done.toLocaleString()} lines so far`}
        </td>
        <td className="cell-actions">
          {r && (
            <button type="button" className="btn btn-ghost btn-sm" aria-expanded={open} onClick={onToggle}>
              {open ? "Hide report" : "Report"}
            </button>
          )}
        </td>
      </tr>
      {open && r && (
        <tr className="detail-row">
          <td colSpan={7}>
            <ImportResult report={r} kind={job.kind} />
          </td>
        </tr>
      )}
    </>
  );
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
