import type { ItemRecord, WorkRecord } from "../../../api/workflowTypes";
import type { Question, Schema } from "../../../form/schema";
import { answerKey, answerText, questionName } from "../review/answerText";

const REVIEW: Record<string, string> = { approved: "approved", corrected: "corrected", rejected: "rejected", disputed: "disputed" };

/** One item's labels against its ground truth, question by question. */
export function ItemDetail({ item, schema, names }: { item: ItemRecord; schema: Schema | null | undefined; names: Map<string, string> }) {
  const qs: Question[] = schema?.questions ?? [];
  const labels = item.annotations.filter((a) => a.status === "submitted" || a.answers);
  const gt = item.ground_truth;
  const who = (a: WorkRecord, i: number) => names.get(a.user_id) ?? `Label ${i + 1}`;
  return (
    <div className="item-detail">
      <div className="item-inputs">
        {Object.entries(item.inputs).map(([k, v]) => (
          <div key={k} className="kv">
            <span className="k">{k}</span>
            <span className="v">{typeof v === "string" ? v : JSON.stringify(v)}</span>
          </div>
        ))}
      </div>
      {gt?.provenance.rationale && (
        <p className="rationale">
          <strong>Rationale:</strong> {gt.provenance.rationale}
        </p>
      )}
      {item.drop_reason && (
        <p className="rationale">
          <strong>Dropped:</strong> {item.drop_reason}
        </p>
      )}
      <div className="labels-scroll compact">
        <table className="table detail-table">
          <thead>
            <tr>
              <th>Question</th>
              {labels.map((a, i) => (
                <th key={a.id}>
                  {who(a, i)}
                  {a.review_status && a.review_status !== "none" && <span className={`review-chip ${a.review_status}`}>{REVIEW[a.review_status] ?? a.review_status}</span>}
                </th>
              ))}
              <th>Ground truth</th>
            </tr>
          </thead>
          <tbody>
            {qs.map((q) => {
              const g = gt?.answers[q.key];
              return (
                <tr key={q.key}>
                  <td className="q-name" title={q.label}>
                    {questionName(q)}
                  </td>
                  {labels.map((a) => {
                    const v = (a.corrected_answers ?? a.answers)?.[q.key];
                    const off = g !== undefined && v !== undefined && answerKey(v) !== answerKey(g);
                    return (
                      <td key={a.id} className={off ? "off" : undefined}>
                        {answerText(q, v)}
                      </td>
                    );
                  })}
                  <td className="gt-cell">{gt ? answerText(q, g) : "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
