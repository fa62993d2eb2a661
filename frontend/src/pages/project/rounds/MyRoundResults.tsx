import { Link, useParams } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import type { AnswerValue } from "../../../api";
import { qualityKeys, useQualityApi } from "../../../api/quality";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { fixed } from "../../../charts";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { METRIC_LABEL, ruleText } from "../calibration/rule";
import { answerText } from "../review/answerText";

const REFERENCE: Record<string, string> = { gold: "Gold", majority: "Majority" };

/** A closed round as its participant sees it: their answers beside gold (or the majority) and the lead's notes. */
export function MyRoundResults({ project }: { project: ProjectDetail }) {
  const { rid = "" } = useParams();
  const api = useQualityApi();
  const q = useQuery({ queryKey: qualityKeys.mine(project.id, rid), queryFn: () => api.mine(project.id, rid) });
  const schemaQ = new Map((project.schema?.questions ?? []).map((x) => [x.key, x]));
  if (q.isPending) return <Spinner label="Loading your results…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="Could not load your results." />;
  const r = q.data;
  const text = (key: string, v: unknown) => answerText(schemaQ.get(key), v as AnswerValue);
  return (
    <div className="measures">
      <Link to=".." relative="path" className="muted">
        ← My rounds
      </Link>
      <section className="card">
        <div className="round-head">
          <div>
            <h2>
              Round {r.round.number}: {r.round.name}
            </h2>
            <p className="muted">Pass: {ruleText(r.round.pass, METRIC_LABEL)}</p>
          </div>
          <div className="round-actions">
            <span>Your score {fixed(r.score)}</span>
            {r.passed ? <span className="badge badge-pass">Passed</span> : <span className="badge badge-fail">Not passed</span>}
          </div>
        </div>
      </section>
      {r.items.map((it) => (
        <section key={it.item_id} className="card" aria-label={`Item ${it.position}`}>
          <h3 className="card-title">Item {it.position}</h3>
          <table className="table">
            <thead>
              <tr>
                <th>Question</th>
                <th>You</th>
                <th>Reference</th>
                <th />
                <th>Notes</th>
              </tr>
            </thead>
            <tbody>
              {it.questions.map((x) => (
                <tr key={x.key} className={x.agrees === false ? "row-differs" : undefined}>
                  <th scope="row">{x.label || x.key}</th>
                  <td>{text(x.key, x.mine)}</td>
                  <td>
                    {x.reference_kind ? (
                      <>
                        {text(x.key, x.reference)} <span className="muted">({REFERENCE[x.reference_kind]})</span>
                      </>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td>{x.agrees === null ? "" : x.agrees ? <span className="badge badge-pass">Same</span> : <span className="badge badge-fail">Differs</span>}</td>
                  <td>
                    {x.notes.map((n, i) => (
                      <p key={i} className="round-note">
                        {n}
                      </p>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
