import type { BackgroundImport, ImportReport } from "../../../api/workflowTypes";
import { errorRows } from "../items/importErrors";
import type { ImportPhase } from "./useImportRun";
import "./imports.css";

/** What an import brings in: items, or model predictions for existing items. */
export type ImportKind = "items" | "predictions";

/** The progress of a run: the upload, then the server's import of it. */
export function ImportProgress({ phase, name }: { phase: ImportPhase; name: string }) {
  if (phase.kind === "idle") return null;
  const up = phase.kind === "uploading" ? Math.round(phase.fraction * 100) : 100;
  return (
    <div className="import-progress" data-testid="import-progress">
      <ProgressBar label="Upload" percent={up} text={up < 100 ? `Uploading ${name} — ${up}%` : `Uploaded ${name}`} />
      {phase.kind === "importing" && <ProgressBar label="Server import" percent={Math.floor(phase.job.percent)} text={importText(phase.job)} />}
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

/** What an import did, with its refused lines as a table of line, field, problem and fix. */
export function ImportResult({ report, kind = "items" }: { report: ImportReport; kind?: ImportKind }) {
  const bad = report.errors.length;
  const rows = errorRows(report.errors);
  return (
    <div className="import-report" data-testid="import-report">
      <div className={bad ? "notice notice-warn" : "notice notice-success"} role="status">
        <strong>{reportSummary(report, kind)}</strong>
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

/** One sentence of what an import did; predictions are only ever stored, never updated or left unchanged. */
export function reportSummary(report: ImportReport, kind: ImportKind = "items"): string {
  const n = (x: number) => x.toLocaleString();
  if (kind === "predictions") return `${n(report.lines)} lines: ${n(report.imported)} predictions accepted, ${n(report.errors.length)} with errors.`;
  return `${n(report.lines)} lines: ${n(report.imported)} imported, ${n(report.updated)} updated, ${n(report.unchanged)} unchanged, ${n(report.errors.length)} with errors.`;
}
