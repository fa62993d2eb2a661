import { useQuery } from "@tanstack/react-query";
import { useWorkflowApi, workflowKeys } from "../../../api/workflow";
import type { ImportPool, ItemSample } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";

/** The file of a sample: its lines as NDJSON. */
export function sampleFile(sample: ItemSample): string {
  return sample.lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

/** Offers text as a file download. */
function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * What a line of an import takes, from the server's reading of the schema:
 * every input key with its type, whether it is required and whether
 * annotators see it, the declared meta keys, an example line and a sample
 * file. For the calibration pool, the gold answer under `ground_truth`.
 */
export function ImportFormat({ pid, pool }: { pid: string; pool: ImportPool }) {
  const api = useWorkflowApi();
  const q = useQuery({ queryKey: workflowKeys.itemSample(pid, pool), queryFn: () => api.itemSample(pid, pool) });
  const calibration = pool === "calibration";
  return (
    <section className="card import-format" aria-label="Import format">
      <h2 className="card-title">Import format {calibration ? "— calibration pool" : "— production items"}</h2>
      <p className="muted">
        One JSON object per line (NDJSON, <code>.jsonl</code>): <code>external_id</code> (your id of the item, unique in the project), <code>inputs</code> keyed as
        below, and optionally <code>meta</code>, <code>language</code> and <code>ground_truth</code>. CSV files are not imported.
      </p>
      {q.isPending && <Spinner label="Reading the schema…" />}
      <ErrorMessage error={q.error} title="Could not read the import format." />
      {q.data && <SampleView sample={q.data} />}
    </section>
  );
}

function SampleView({ sample }: { sample: ItemSample }) {
  const calibration = sample.pool === "calibration";
  const first = sample.lines[0];
  return (
    <>
      <table className="table import-keys" aria-label="Input keys">
        <thead>
          <tr>
            <th>Key</th>
            <th>Type</th>
            <th>Required</th>
            <th>Annotators see it</th>
            <th>What it is</th>
          </tr>
        </thead>
        <tbody>
          {sample.inputs.map((i) => (
            <tr key={i.name} data-key={`inputs.${i.name}`}>
              <td>
                <code>inputs.{i.name}</code>
              </td>
              <td>{i.type}</td>
              <td>{i.optional ? "optional" : <strong>required</strong>}</td>
              <td>{i.hidden ? "hidden" : "shown"}</td>
              <td className="muted">{[i.label, i.help].filter(Boolean).join(" — ")}</td>
            </tr>
          ))}
          {sample.meta.map((m) => (
            <tr key={m.key} data-key={`meta.${m.key}`}>
              <td>
                <code>meta.{m.key}</code>
              </td>
              <td>{m.options?.length ? `one of ${m.options.join(", ")}` : "any JSON"}</td>
              <td>{m.required ? <strong>required</strong> : "optional"}</td>
              <td>hidden</td>
              <td className="muted">{[m.label, m.help].filter(Boolean).join(" — ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {calibration && first?.ground_truth && (
        <div className="gold-format" data-testid="gold-format">
          <h3 className="recent-title">Gold answers</h3>
          <p className="muted">
            Each calibration item may carry its gold answer under <code>ground_truth</code>, keyed by question; questions may be left out, and there is no{" "}
            <code>provenance</code>. Rounds scored by accuracy need a gold answer on every item.
          </p>
          <pre className="code-block">{JSON.stringify({ ground_truth: first.ground_truth }, null, 2)}</pre>
        </div>
      )}
      {first && (
        <>
          <h3 className="recent-title">Example line</h3>
          <pre className="code-block example-line">{JSON.stringify(first)}</pre>
        </>
      )}
      <div className="import-row">
        <button type="button" className="btn" onClick={() => download(calibration ? "calibration-sample.jsonl" : "items-sample.jsonl", sampleFile(sample))}>
          Download a sample file (.jsonl)
        </button>
        <span className="muted">
          {sample.lines.length} example lines made from the schema{calibration ? ", with gold answers" : ""}; media are example URLs.
        </span>
      </div>
    </>
  );
}
