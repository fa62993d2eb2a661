import { useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../../api";
import { uploadItems, workflowKeys } from "../../../api/workflow";
import type { ImportReport } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";

/** Import items from an NDJSON file with an upload progress bar and the server's line-by-line report. */
export function ImportCard({ pid }: { pid: string }) {
  const client = useApiClient();
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);

  async function start() {
    if (!file) return;
    setReport(null);
    setError(null);
    setProgress(0);
    abort.current = new AbortController();
    try {
      const rep = await uploadItems(client, pid, file, setProgress, abort.current.signal);
      setReport(rep);
      void qc.invalidateQueries({ queryKey: workflowKeys.itemsAll(pid) });
      void qc.invalidateQueries({ queryKey: workflowKeys.stats(pid) });
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
      abort.current = null;
    }
  }

  const pct = progress === null ? 0 : Math.round(progress * 100);
  return (
    <div className="card import-card">
      <h2 className="card-title">Import items</h2>
      <p className="muted">
        One JSON object per line: <code>{'{"external_id", "inputs": {…}, "meta": {…}}'}</code>. Re-importing an external id updates it.
      </p>
      <div className="import-row">
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
        <button type="button" className="btn btn-primary" disabled={!file || progress !== null} onClick={() => void start()}>
          Import
        </button>
        {progress !== null && (
          <button type="button" className="btn btn-ghost" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        )}
      </div>
      {progress !== null && (
        <div className="upload" data-testid="import-progress">
          <div className="upload-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Upload">
            <div style={{ width: `${pct}%` }} />
          </div>
          <span className="muted">{pct < 100 ? `Uploading ${file?.name} — ${pct}%` : "Uploaded; the server is importing…"}</span>
        </div>
      )}
      <ErrorMessage error={error} title="The import failed." />
      {report && <ImportResult report={report} />}
    </div>
  );
}

function ImportResult({ report }: { report: ImportReport }) {
  const bad = report.errors.length;
  return (
    <div className="import-report" data-testid="import-report">
      <div className={bad ? "notice notice-warn" : "notice notice-success"} role="status">
        <strong>
          {report.lines.toLocaleString()} lines: {report.imported.toLocaleString()} imported, {report.updated.toLocaleString()} updated,{" "}
          {report.unchanged.toLocaleString()} unchanged, {bad.toLocaleString()} with errors.
        </strong>
      </div>
      {bad > 0 && (
        <table className="table import-errors" aria-label="Lines with errors">
          <thead>
            <tr>
              <th className="num-col">Line</th>
              <th>Problem</th>
            </tr>
          </thead>
          <tbody>
            {report.errors.map((e) => (
              <tr key={e.line}>
                <td className="num-col">{e.line}</td>
                <td>
                  {e.error}
                  {e.details != null && <code className="err-details">{typeof e.details === "string" ? e.details : JSON.stringify(e.details)}</code>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {report.errors_truncated && <p className="muted">Only the first errors are listed.</p>}
    </div>
  );
}
