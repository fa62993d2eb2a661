import { useMemo } from "react";
import { insightKeys, useInsightApi, type DatasetReport, type ValueCount } from "../../../api/insight";
import { Chart, countBarsOption, fixed, percent, seconds, shareBarsOption } from "../../../charts";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";
import { Spinner } from "../../../components/Spinner";
import { Figure } from "../figures/figures";
import { DistributionFigure } from "../balance/counts";
import { ComputingBadge } from "../figures/ComputingBadge";
import { useFigures } from "../figures/useFigures";
import { useProject } from "../useProject";
import "../../../charts/charts.css";
import "../figures/measures.css";
import "../balance/balance.css";
import "./report.css";

/** The words the UI uses for the server's stage, provenance and verdict values. */
const WORDS: Record<string, string> = {
  criteria: "Criteria",
  criteria_review: "Criteria review",
  split: "Split into criteria",
  label: "Label",
  review: "Review",
  adjudicate: "Adjudicate",
  done: "Done",
  dropped: "Dropped",
  unanimous: "Unanimous",
  majority: "Majority",
  single: "Single label",
  adjudicated: "Adjudicated",
  rule: "Rule-assigned",
  constructed: "Constructed",
  approve: "Approved",
  correct: "Corrected",
  reject: "Rejected",
  disputed: "Disputed",
  unspecified: "No reason given",
};
const word = (v: string) => WORDS[v] ?? v;

/**
 * Report: what the collection produced and what it cost — items per stage,
 * provenance, what was dropped and why, criteria refused, labels per item,
 * review verdicts, adjudication per question, time per label and per person.
 */
export function ReportTab() {
  const project = useProject();
  const api = useInsightApi();
  const q = useFigures(insightKeys.report(project.id), () => api.report(project.id));
  if (q.isPending) return <Spinner label="Loading the report…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="Could not load the report." />;
  const r = q.data;
  return (
    <div className="measures">
      <ReportHeader report={r} />
      {r.items === 0 ? (
        r.status === "computing" ? (
          <Spinner label="Computing the report for the first time…" />
        ) : (
          <EmptyState title="No items yet">The report counts the project's items once they are imported.</EmptyState>
        )
      ) : (
        <ReportBody report={r} />
      )}
    </div>
  );
}

function ReportHeader({ report: r }: { report: DatasetReport }) {
  return (
    <header className="measures-head">
      <div>
        <h2>Dataset report</h2>
        <p className="muted" data-testid="report-computed">
          {r.computed_at ? `Computed ${formatDateTime(r.computed_at)}; gold and the calibration pool are left out.` : "Not computed yet."}
        </p>
      </div>
      <ComputingBadge status={r.status} />
      <dl className="measures-facts">
        <div>
          <dt>Items in the dataset (gold and calibration excluded)</dt>
          <dd>{r.items.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Decided</dt>
          <dd>{r.decided.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Labels</dt>
          <dd>{r.labels.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Dropped</dt>
          <dd>{percent(r.dropped_share)}</dd>
        </div>
        <div>
          <dt>Median per label</dt>
          <dd>{seconds(r.median_seconds)}</dd>
        </div>
      </dl>
    </header>
  );
}

/** One bar chart of value counts, left out when there is nothing to count. */
function CountsFigure({ title, note, counts, testId, horizontal }: { title: string; note?: string; counts: ValueCount[]; testId: string; horizontal?: boolean }) {
  const option = useMemo(
    () => countBarsOption(counts.map((c) => word(c.value)), [{ name: "items", data: counts.map((c) => c.count) }], { horizontal }),
    [counts, horizontal],
  );
  if (counts.length === 0) return null;
  return (
    <Figure title={title} note={note}>
      <Chart option={option} height={horizontal ? Math.max(160, 40 + counts.length * 28) : 240} label={title} testId={testId} />
    </Figure>
  );
}

function ReportBody({ report: r }: { report: DatasetReport }) {
  const droppedTotal = r.dropped.reduce((s, d) => s + d.count, 0);
  const perItem = useMemo(() => r.labels_per_item.map((l) => ({ value: String(l.labels), count: l.items })), [r.labels_per_item]);
  const byLanguage = useMemo(() => {
    const ls = r.languages ?? [];
    return ls.some((l) => l.language !== "") ? ls.map((l) => ({ value: l.language || "none", count: l.items })) : [];
  }, [r.languages]);
  const decidedByLanguage = (r.languages ?? []).map((l) => `${l.language || "none"} ${l.decided.toLocaleString()}`).join(", ");
  return (
    <>
      <div className="measures-grid">
        <CountsFigure title="Items per stage" counts={r.stages} testId="chart-stages" />
        <CountsFigure title="Ground truth by provenance" note="How each decided item got its final answers." counts={r.provenance} testId="chart-provenance" />
        <CountsFigure
          title="Dropped items by reason"
          note={`${droppedTotal.toLocaleString()} dropped, ${percent(r.dropped_share)} of the items.`}
          counts={r.dropped}
          horizontal
          testId="chart-dropped"
        />
        <CriteriaFigure criteria={r.criteria} />
        <CountsFigure title="Labels per item" note="How many accepted labels each item has (items with none are left out)." counts={perItem} testId="chart-labels-per-item" />
        <CountsFigure title="Review verdicts" counts={r.reviews} testId="chart-reviews" />
        <CountsFigure title="Items per language" note={`Decided: ${decidedByLanguage}.`} counts={byLanguage} horizontal testId="chart-languages" />
      </div>
      {r.adaptive && <AdaptiveSection saving={r.adaptive} />}
      <AdjudicationSection report={r} />
      <AnnotatorSection report={r} />
      {r.scores.length > 0 && (
        <section aria-label="Ground truth per question" className="measures">
          <h3 className="balance-section-title">Ground truth per question</h3>
          <div className="measures-grid">
            {r.scores.map((d) => (
              <DistributionFigure key={d.key} distribution={d} testId={`chart-score-${d.key}`} />
            ))}
          </div>
        </section>
      )}
    </>
  );
}

/** What adaptive overlap spent against the fixed overlap it replaces, and what its posteriors say of the ground truth. */
function AdaptiveSection({ saving: a }: { saving: NonNullable<DatasetReport["adaptive"]> }) {
  return (
    <section className="card" aria-label="Adaptive overlap">
      <h3 className="card-title">Adaptive overlap</h3>
      <p data-testid="adaptive-saving">
        {a.labels.toLocaleString()} labels so far, {a.ratio === null ? "—" : fixed(a.ratio)} of the {a.baseline_labels.toLocaleString()} a fixed overlap of{" "}
        {a.baseline} would take.
        {a.estimated_accuracy !== null &&
          ` Estimated accuracy of the ground truth: ${percent(a.estimated_accuracy)} over ${a.posteriors.toLocaleString()} items decided with posteriors (the chance that every answer of an item is right, by the annotators' reliability).`}
      </p>
    </section>
  );
}

function CriteriaFigure({ criteria: c }: { criteria: DatasetReport["criteria"] }) {
  const counts = useMemo(
    () => [
      { value: "Written", count: c.written },
      { value: "Pending", count: c.pending },
      { value: "Valid", count: c.valid },
      { value: "Too vague", count: c.too_vague },
      { value: "Too specific", count: c.too_specific },
    ],
    [c],
  );
  if (c.written === 0) return null;
  return (
    <CountsFigure
      title="Criteria"
      note={`Criteria written by annotators and how review judged them; ${percent(c.loss_share)} of the reviewed ones were refused.`}
      counts={counts}
      testId="chart-criteria"
    />
  );
}

function AdjudicationSection({ report: r }: { report: DatasetReport }) {
  const option = useMemo(
    () => shareBarsOption(r.adjudication.map((a) => a.label || a.key), r.adjudication.map((a) => a.rate), "adjudicated"),
    [r.adjudication],
  );
  // note: without labels nothing can disagree; the rates would all read 0 %
  if (r.adjudication.length === 0 || r.labels === 0) return null;
  return (
    <section className="card" aria-label="Adjudication per question">
      <h3 className="card-title">Adjudication per question</h3>
      <div className="report-split">
        <Chart option={option} height={260} label="Adjudication rate per question" testId="chart-adjudication" />
        <div className="table-scroll">
          <table className="table measures-table" aria-label="Adjudication per question">
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col" className="num">
                  Labels disagreed
                </th>
                <th scope="col" className="num">
                  Adjudicated
                </th>
                <th scope="col" className="num">
                  Rate
                </th>
              </tr>
            </thead>
            <tbody>
              {r.adjudication.map((a) => (
                <tr key={a.key}>
                  <th scope="row">{a.label || a.key}</th>
                  <td className="num">{a.disagreed.toLocaleString()}</td>
                  <td className="num">{a.adjudicated.toLocaleString()}</td>
                  <td className="num">{percent(a.rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <p className="chart-note muted">Rate: the decided items whose labels disagreed on the question and were adjudicated, over all decided items.</p>
    </section>
  );
}

function AnnotatorSection({ report: r }: { report: DatasetReport }) {
  const option = useMemo(
    () => countBarsOption(r.annotators.map((a) => a.name), [{ name: "labels", data: r.annotators.map((a) => a.labels) }], { horizontal: true, name: "labels" }),
    [r.annotators],
  );
  if (r.annotators.length === 0) return null;
  return (
    <section className="card" aria-label="Annotators">
      <h3 className="card-title">Labels per annotator</h3>
      <div className="report-split">
        <Chart option={option} height={Math.max(160, 40 + r.annotators.length * 28)} label="Labels per annotator" testId="chart-annotators" />
        <div className="table-scroll">
          <table className="table measures-table" aria-label="Annotators">
            <thead>
              <tr>
                <th scope="col">Annotator</th>
                <th scope="col" className="num">
                  Labels
                </th>
                <th scope="col" className="num">
                  Median per label
                </th>
              </tr>
            </thead>
            <tbody>
              {r.annotators.map((a) => (
                <tr key={a.user_id}>
                  <th scope="row">{a.name}</th>
                  <td className="num">{a.labels.toLocaleString()}</td>
                  <td className="num">{seconds(a.median_seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
