import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AnswerValue, Question } from "../../../api";
import { qualityKeys, useQualityApi, type ReportAnnotator, type ReportQuestion, type RoundDetail, type RoundReport } from "../../../api/quality";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { Chart, fixed, interval, percent, seconds, thresholdBarsOption, trendOption } from "../../../charts";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { AlphaFigure, Figure, MatrixFigure } from "../figures/figures";
import { answerText } from "../review/answerText";
import { NoteForm, type NoteTarget } from "./NoteForm";
import { METRIC_LABEL } from "./rule";

/** The report of a closed round: per question, per annotator, the matrix, the trend and the disputed pairs. */
export function RoundReportView({ project, round }: { project: ProjectDetail; round: RoundDetail }) {
  const api = useQualityApi();
  const q = useQuery({ queryKey: qualityKeys.report(project.id, round.id), queryFn: () => api.report(project.id, round.id) });
  const [target, setTarget] = useState<NoteTarget | null>(null);
  if (q.isPending) return <Spinner label="Computing the report…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="Could not load the report." />;
  const r = q.data;
  const schemaQ = new Map((project.schema?.questions ?? []).map((x) => [x.key, x]));
  return (
    <>
      <div className="measures-grid">
        <ScoreFigure report={r} />
        <AlphaFigure questions={r.questions} />
        <MatrixFigure matrix={r.matrix} note="Share of the same answers on the round's items, over the questions of the pass rule." />
        <TrendFigure report={r} />
      </div>
      <AnnotatorTable report={r} />
      <QuestionTable questions={r.questions} pooled={r.pooled} />
      <DisputedTable report={r} schemaQ={schemaQ} onNote={setTarget} />
      <NoteForm project={project} round={round} target={target} onTarget={setTarget} />
    </>
  );
}

function ScoreFigure({ report: r }: { report: RoundReport }) {
  const option = useMemo(
    () =>
      thresholdBarsOption(
        r.annotators.map((a) => ({ label: a.name, value: a.score, passed: a.passed })),
        r.pass.threshold,
        METRIC_LABEL[r.pass.metric] ?? r.pass.metric,
      ),
    [r],
  );
  const passed = r.annotators.filter((a) => a.passed).length;
  return (
    <Figure title="Who passed" note={`${passed} of ${r.annotators.length} passed; the dashed line is the threshold.`}>
      <Chart option={option} height={280} label="Score per annotator against the pass threshold" testId="chart-scores" />
    </Figure>
  );
}

/** The trend picker's key of the pooled scores (no question key has a NUL). */
const POOLED = "\u0000pooled";

/** The name of the pooled scores: their labels joined, "Physical Adherence + Instruction Alignment". */
function pooledName(r: RoundReport): string {
  const label = new Map(r.questions.map((q) => [q.key, q.label || q.key]));
  return (r.pooled?.questions ?? []).map((k) => label.get(k) ?? k).join(" + ");
}

/** Round-over-round lines of one question, or of the pooled scores: exact, within ±1 and MAD (ordinal), and α. */
function TrendFigure({ report: r }: { report: RoundReport }) {
  const keys = r.questions.map((q) => q.key).filter((k) => r.trend.questions[k]);
  const first = r.trend.pooled ? POOLED : (r.questions.find((q) => q.level !== "nominal" && r.trend.questions[q.key])?.key ?? keys[0] ?? "");
  const [key, setKey] = useState(first);
  const t = key === POOLED ? r.trend.pooled : r.trend.questions[key];
  const option = useMemo(() => {
    if (!t) return null;
    const lines: Parameters<typeof trendOption>[1] = [];
    const has = (xs: (number | null)[]) => xs.some((x) => x !== null);
    if (has(t.exact)) lines.push({ name: "exact", data: t.exact, axis: 0 });
    if (has(t.within_one)) lines.push({ name: "within ±1", data: t.within_one, axis: 0 });
    if (has(t.alpha)) lines.push({ name: "α", data: t.alpha, axis: 0 });
    if (has(t.mad)) lines.push({ name: "MAD", data: t.mad, axis: 1 });
    return trendOption(r.trend.rounds, lines);
  }, [t, r.trend.rounds]);
  if (!option) return null;
  return (
    <Figure title="Round over round" note="Exact and within ±1 are shares of rating pairs (left axis); MAD is their mean absolute difference (right axis, dashed).">
      <div className="field trend-picker">
        <label htmlFor="trend-question">Question shown</label>
        <select id="trend-question" value={key} onChange={(e) => setKey(e.target.value)}>
          {r.trend.pooled && <option value={POOLED}>Pooled: {pooledName(r)}</option>}
          {r.questions
            .filter((q) => r.trend.questions[q.key])
            .map((q) => (
              <option key={q.key} value={q.key}>
                {q.label || q.key}
              </option>
            ))}
        </select>
      </div>
      <Chart option={option} height={280} label="Trend over rounds of exact, within one and mean absolute difference" testId="chart-trend" />
    </Figure>
  );
}

function AnnotatorTable({ report: r }: { report: RoundReport }) {
  const keys = r.questions.map((q) => q.key);
  return (
    <section className="card">
      <h3 className="card-title">Per annotator</h3>
      <div className="table-scroll">
        <table className="table measures-table" aria-label="Per annotator">
          <thead>
            <tr>
              <th>Annotator</th>
              <th>Items</th>
              <th>Median time</th>
              <th>Score</th>
              <th>Result</th>
              {keys.map((k) => (
                <th key={k} title="Accuracy against gold (Yes / No accuracy) · exact / ±1 / MAD · agreement with peers">
                  {k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {r.annotators.map((a) => (
              <tr key={a.user_id}>
                <th scope="row">{a.name}</th>
                <td className="num">{a.items_done}</td>
                <td className="num">{seconds(a.median_seconds)}</td>
                <td className="num">{fixed(a.score)}</td>
                <td>{a.passed ? <span className="badge badge-pass">Passed</span> : <span className="badge badge-fail">Not passed</span>}</td>
                {keys.map((k) => (
                  <td key={k} className="num">
                    <AnnotatorCell a={a} k={k} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function AnnotatorCell({ a, k }: { a: ReportAnnotator; k: string }) {
  const f = a.questions[k];
  if (!f) return <>—</>;
  const parts: string[] = [];
  if (f.accuracy !== null) {
    const yn = f.yes_accuracy !== null || f.no_accuracy !== null ? ` (Yes ${percent(f.yes_accuracy, 0)} / No ${percent(f.no_accuracy, 0)})` : "";
    parts.push(`gold ${percent(f.accuracy, 0)}${yn}`);
  }
  if (f.exact !== null) parts.push(`${percent(f.exact, 0)} / ${percent(f.within_one, 0)} / ${fixed(f.mad)}`);
  if (f.peer_agreement !== null) parts.push(`peers ${percent(f.peer_agreement, 0)}`);
  return <>{parts.length ? parts.join(" · ") : "—"}</>;
}

function QuestionTable({ questions, pooled }: { questions: ReportQuestion[]; pooled: RoundReport["pooled"] }) {
  return (
    <section className="card">
      <h3 className="card-title">Per question</h3>
      <div className="table-scroll">
        <table className="table measures-table" aria-label="Per question">
          <thead>
            <tr>
              <th>Question</th>
              <th>Level</th>
              <th>Units</th>
              <th>Ratings</th>
              <th>α</th>
              <th>95 % interval</th>
              <th>Exact</th>
              <th>Within ±1</th>
              <th>MAD</th>
            </tr>
          </thead>
          <tbody>
            {questions.map((q) => (
              <tr key={q.key}>
                <th scope="row">
                  {q.label || q.key}
                  <div className="muted mono">{q.key}</div>
                </th>
                <td>{q.level}</td>
                <td className="num">{q.n_units}</td>
                <td className="num">{q.n_ratings}</td>
                <td className="num">{fixed(q.alpha)}</td>
                <td className="num">{interval(q.alpha_ci)}</td>
                <td className="num">{percent(q.exact)}</td>
                <td className="num">{percent(q.within_one)}</td>
                <td className="num">{fixed(q.mad)}</td>
              </tr>
            ))}
            {pooled && (
              <tr>
                <th scope="row" title="Every pair of annotators' scores of every item and question, as one question">
                  Pooled: {pooled.questions.map((k) => questions.find((q) => q.key === k)?.label || k).join(" + ")}
                  <div className="muted mono">{pooled.questions.join(" + ")}</div>
                </th>
                <td>ordinal</td>
                <td className="num">{pooled.n_units}</td>
                <td className="num">{pooled.n_ratings}</td>
                <td className="num">{fixed(pooled.alpha)}</td>
                <td className="num">{interval(pooled.alpha_ci)}</td>
                <td className="num">{percent(pooled.exact)}</td>
                <td className="num">{percent(pooled.within_one)}</td>
                <td className="num">{fixed(pooled.mad)}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function DisputedTable({ report: r, schemaQ, onNote }: { report: RoundReport; schemaQ: Map<string, Question>; onNote: (t: NoteTarget) => void }) {
  if (r.disputed.length === 0) return null;
  const text = (key: string, v: unknown) => answerText(schemaQ.get(key), v as AnswerValue);
  return (
    <section className="card">
      <h3 className="card-title">Most disputed</h3>
      <div className="table-scroll">
        <table className="table" aria-label="Most disputed">
          <thead>
            <tr>
              <th>Item</th>
              <th>Question</th>
              <th>Gold</th>
              <th>Answers</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {r.disputed.map((d) => (
              <tr key={`${d.item_id}/${d.question}`}>
                <td className="mono">{d.external_id}</td>
                <td>{schemaQ.get(d.question)?.short_label || schemaQ.get(d.question)?.label || d.question}</td>
                <td>{d.gold === null || d.gold === undefined ? "—" : text(d.question, d.gold)}</td>
                <td>
                  <ul className="answers-list">
                    {d.answers.map((a) => (
                      <li key={a.user_id}>
                        {a.name}: <strong>{text(d.question, a.answer)}</strong>
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="cell-actions">
                  <button type="button" className="btn btn-sm" onClick={() => onNote({ item_id: d.item_id, question: d.question })}>
                    Add note
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
