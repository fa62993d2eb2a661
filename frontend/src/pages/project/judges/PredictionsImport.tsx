import { useMemo, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../../api";
import { uploadPredictions, uploadPredictionsAsync } from "../../../api/workflow";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { ImportProgress, ImportResult } from "../imports/ImportResult";
import { POLL_MS, useImportRun } from "../imports/useImportRun";
import { predictionExample, predictionFields } from "./predictionFormat";

/**
 * Import a model's predictions from an NDJSON file (leads): the expected line
 * made from the project's questions, then the upload with its progress and
 * the line-by-line report (useImportRun, as the items import). The
 * leaderboard is asked again after each import.
 */
export function PredictionsImport({ project, pollMs = POLL_MS }: { project: ProjectDetail; pollMs?: number }) {
  const client = useApiClient();
  const qc = useQueryClient();
  const pid = project.id;
  const fields = useMemo(() => predictionFields(project.schema), [project.schema]);
  const example = useMemo(() => JSON.stringify(predictionExample(project.schema)), [project.schema]);
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const imports = useImportRun(pid, { pollMs, onImported: () => void qc.invalidateQueries({ queryKey: ["projects", pid, "judges"] }) });
  const start = () => {
    if (!file) return;
    void imports.run(
      (onProgress, signal) => uploadPredictionsAsync(client, pid, file, onProgress, signal, file.name),
      (onProgress, signal) => uploadPredictions(client, pid, file, onProgress, signal),
    );
  };
  return (
    <section className="card import-card" aria-labelledby="predictions-import-title">
      <h3 className="card-title" id="predictions-import-title">
        Import predictions
      </h3>
      <p className="muted">
        One JSON object per line, for items already imported (matched by <code>external_id</code>); a prediction need not answer every question, and a
        later line for the same item and model replaces the earlier one.
      </p>
      <pre className="predictions-example" data-testid="predictions-example">
        {example}
      </pre>
      {fields.length > 0 && (
        <>
          <button type="button" className="link-btn" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? "Hide the answer of each question" : `The answer of each question (${fields.length})`}
          </button>
          {open && (
            <table className="table predictions-fields" aria-label="Answers a prediction may give">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Question</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Answer</th>
                </tr>
              </thead>
              <tbody>
                {fields.map((f) => (
                  <tr key={f.key}>
                    <td>
                      <code>{f.key}</code>
                    </td>
                    <td>{f.label}</td>
                    <td>{f.kind}</td>
                    <td>{f.values}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      <div className="import-row">
        <input
          type="file"
          accept=".jsonl,.ndjson,application/x-ndjson,application/json"
          aria-label="Predictions file"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            imports.clear();
          }}
        />
        <button type="button" className="btn btn-primary" disabled={!file || imports.busy} onClick={start}>
          Import
        </button>
        {imports.phase.kind === "uploading" && (
          <button type="button" className="btn btn-ghost" onClick={imports.cancel}>
            Cancel
          </button>
        )}
      </div>
      <ImportProgress phase={imports.phase} name={file?.name ?? "the file"} />
      <ErrorMessage error={imports.error} title="The import failed." />
      {imports.report && <ImportResult report={imports.report} kind="predictions" />}
    </section>
  );
}
