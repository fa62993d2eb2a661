import { useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, useApiClient } from "../../../api";
import { uploadItems, uploadItemsAsync, useWorkflowApi, watchImport, workflowKeys } from "../../../api/workflow";
import type { BackgroundImport, ImportPool, ImportReport } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";
import { errorRows } from "./importErrors";

/** How often a running background import is polled. */
export const POLL_MS = 500;

type Phase = { kind: "idle" } | { kind: "uploading"; fraction: number } | { kind: "importing"; job: BackgroundImport };

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
 * Import items from an NDJSON file or pasted lines: the file is uploaded
 * (first progress bar) for a background import on the server, which is polled
 * (second progress bar) until its line-by-line report is ready. A server
 * without background jobs imports at once instead, and so does an import into
 * the calibration pool.
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
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  function imported(rep: ImportReport) {
    setReport(rep);
    void qc.invalidateQueries({ queryKey: workflowKeys.itemsAll(pid) });
    void qc.invalidateQueries({ queryKey: workflowKeys.stats(pid) });
  }

  const source = pasting ? (text.trim() ? new File([text.endsWith("\n") ? text : text + "\n"], "pasted.jsonl", { type: "application/x-ndjson" }) : null) : file;

  async function start() {
    const body = source;
    if (!body) return;
    setReport(null);
    setError(null);
    setPhase({ kind: "uploading", fraction: 0 });
    const ctl = new AbortController();
    abort.current = ctl;
    const onProgress = (fraction: number) => setPhase({ kind: "uploading", fraction });
    try {
      if (pool === "calibration") {
        // note: the server imports into the pool in the request, never in the background
        imported(await uploadItems(client, pid, body, onProgress, ctl.signal, pool));
        return;
      }
      let started;
      try {
        started = await uploadItemsAsync(client, pid, body, onProgress, ctl.signal, body.name);
      } catch (err) {
        // A server without background jobs: import in the request instead.
        if (!(err instanceof ApiError && err.code === "unavailable")) throw err;
        setPhase({ kind: "uploading", fraction: 0 });
        started = { report: await uploadItems(client, pid, body, onProgress, ctl.signal) };
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

  const busy = phase.kind !== "idle";
  const up = phase.kind === "uploading" ? Math.round(phase.fraction * 100) : 100;
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
          setReport(null);
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
          onChange={(e) => (setText(e.target.value), setReport(null))}
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
              setReport(null);
            }}
          />
        )}
        <button type="button" className="btn btn-primary" disabled={!source || busy} onClick={() => void start()}>
          {pool === "calibration" ? "Import into the calibration pool" : "Import"}
        </button>
        {phase.kind === "uploading" && (
          <button type="button" className="btn btn-ghost" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        )}
      </div>
      {busy && (
        <div className="import-progress" data-testid="import-progress">
          <ProgressBar label="Upload" percent={up} text={up < 100 ? `Uploading ${name} — ${up}%` : `Uploaded ${name}`} />
          {phase.kind === "importing" && <ProgressBar label="Server import" percent={Math.floor(phase.job.percent)} text={importText(phase.job)} />}
        </div>
      )}
      <ErrorMessage error={error} title="The import failed." />
      {report && <ImportResult report={report} />}
      <RecentImports pid={pid} />
    </div>
  );
}

function importText(job: BackgroundImport): string {
  const lines = `${job.lines_done.toLocaleString()} lines`;
  if (job.status === "queued") return "Waiting for the server to start the import…";
  return `Importing on the server — ${Math.floor(job.percent)}% (${lines})`;
}

function ProgressBar({ label, percent, text }: { label: string; percent: number; text: string }) {
  const pct = Math.max(0, Math.min(100, percent));
  return (
    <div className="upload" data-progress={label}>
      <div className="upload-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={label}>
        <div style={{ width: `${pct}%` }} />
      </div>
      <span className="muted upload-text">{text}</span>
    </div>
  );
}

export function ImportResult({ report }: { report: ImportReport }) {
  const bad = report.errors.length;
  const rows = errorRows(report.errors);
  return (
    <div className="import-report" data-testid="import-report">
      <div className={bad ? "notice notice-warn" : "notice notice-success"} role="status">
        <strong>{reportSummary(report)}</strong>
      </div>
      {bad > 0 && (
        <table className="table import-errors" aria-label="Lines with errors">
          <thead>
            <tr>
              <th className="num-col">Line</th>
              <th>Field</th>
              <th>Problem</th>
              <th>How to fix it</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={`${r.line}-${r.field}-${i}`} data-line={r.line}>
                <td className="num-col">{r.line}</td>
                <td>{r.field ? <code>{r.field}</code> : <span className="muted">—</span>}</td>
                <td>
                  {r.problem}
                  {r.code && <code className="err-code">{r.code}</code>}
                </td>
                <td className="import-hint">{r.hint || <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {report.errors_truncated && <p className="muted">Only the first errors are listed.</p>}
    </div>
  );
}

export function reportSummary(report: ImportReport): string {
  return (
    `${report.lines.toLocaleString()} lines: ${report.imported.toLocaleString()} imported, ${report.updated.toLocaleString()} updated, ` +
    `${report.unchanged.toLocaleString()} unchanged, ${report.errors.length.toLocaleString()} with errors.`
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
            <ImportResult report={r} />
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
