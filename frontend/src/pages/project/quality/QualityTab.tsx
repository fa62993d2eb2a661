import { useMemo } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../../api";
import { qualityKeys, useQualityApi, type QualityAnnotator, type QualityReport } from "../../../api/quality";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { Chart, groupedBarsOption, intervalOption, percent, seconds, thresholdBarsOption } from "../../../charts";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";
import { Spinner } from "../../../components/Spinner";
import { Figure } from "../figures/figures";
import { useProject } from "../useProject";
import "../../../charts/charts.css";
import "../figures/measures.css";
import "./quality.css";

/** The gold accuracy below which an annotator is flagged when the policy does not say. */
const DEFAULT_GOLD_MIN = 0.8;
/** The estimated accuracy under which an annotator is flagged when the policy does not say. */
const DEFAULT_RELIABILITY_MIN = 0.7;
/** The Yes share above which one binary question counts as rubber-stamped (the server's flag rule). */
const RUBBER_STAMP_SHARE = 0.95;

const FLAG_LABEL: Record<string, string> = {
  low_gold_accuracy: "Low gold accuracy",
  rushed: "Rushed",
  rubber_stamping: "Rubber-stamping",
  anchoring: "Anchoring on drafts",
  low_reliability: "Low reliability",
};

/** Quality: each annotator's speed, agreement, gold accuracy, Yes rates and flags, for the lead. */
export function QualityTab() {
  const project = useProject();
  const api = useQualityApi();
  const q = useQuery({ queryKey: qualityKeys.quality(project.id), queryFn: () => api.quality(project.id) });
  if (q.isPending) return <Spinner label="Loading quality…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="Could not load annotator quality." />;
  const r = q.data;
  return (
    <div className="measures">
      <header className="measures-head">
        <div>
          <h2>Annotator quality</h2>
          <p className="muted">Computed {formatDateTime(r.computed_at)} from production labels; gold and calibration work are counted apart.</p>
        </div>
      </header>
      {r.annotators.length === 0 ? (
        <EmptyState title="No labels yet">Figures appear once annotators have submitted labels.</EmptyState>
      ) : (
        <QualityBody project={project} report={r} />
      )}
    </div>
  );
}

function QualityBody({ project, report }: { project: ProjectDetail; report: QualityReport }) {
  const flagged = report.annotators.filter((a) => a.flags.length > 0 || a.paused);
  return (
    <>
      {flagged.length > 0 && <FlagList pid={project.id} annotators={flagged} />}
      <div className="measures-grid">
        <ReliabilityFigure project={project} annotators={report.annotators} />
        <GoldFigure project={project} annotators={report.annotators} />
        <YesRateFigure project={project} annotators={report.annotators} />
      </div>
      <QualityTable annotators={report.annotators} />
    </>
  );
}

/** Who needs the lead's attention and why, with the pause to lift. */
function FlagList({ pid, annotators }: { pid: string; annotators: QualityAnnotator[] }) {
  const api = useQualityApi();
  const qc = useQueryClient();
  const lift = useMutation({
    mutationFn: (uid: string) => api.liftPause(pid, uid),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: qualityKeys.quality(pid) });
      void qc.invalidateQueries({ queryKey: queryKeys.members(pid) });
    },
  });
  return (
    <section className="card quality-flags" aria-label="Flagged annotators">
      <h3 className="card-title">Needs attention</h3>
      <ul>
        {annotators.map((a) => (
          <li key={a.user_id} data-testid={`flagged-${a.user_id}`}>
            <div className="quality-flag-head">
              <strong>{a.name}</strong>
              {a.paused && <span className="badge badge-fail">Paused</span>}
              {a.paused && (
                <button type="button" className="btn btn-sm" disabled={lift.isPending} onClick={() => lift.mutate(a.user_id)}>
                  Lift pause
                </button>
              )}
            </div>
            <ul className="quality-reasons">
              {a.flags.map((f) => (
                <li key={f.code}>
                  <span className="badge badge-computing">{FLAG_LABEL[f.code] ?? f.code}</span> {f.reason}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {lift.isError && <ErrorMessage error={lift.error} title="Could not lift the pause." />}
    </section>
  );
}

/** Each annotator's estimated accuracy with its interval, most reliable first. */
function ReliabilityFigure({ project, annotators }: { project: ProjectDetail; annotators: QualityAnnotator[] }) {
  const min = project.workflow?.reliability_min_accuracy || DEFAULT_RELIABILITY_MIN;
  const rows = useMemo(
    () =>
      annotators
        .flatMap((a) => (a.reliability ? [{ label: a.name, value: a.reliability.accuracy, lo: a.reliability.low, hi: a.reliability.high }] : []))
        .sort((a, b) => b.value - a.value),
    [annotators],
  );
  const option = useMemo(() => intervalOption(rows, "estimated accuracy"), [rows]);
  if (rows.length === 0) return null;
  return (
    <Figure
      title="Estimated accuracy"
      note={`How often each person's answers are right by a Dawid–Skene model of everyone's labels (gold items pinned to their answers), with the 95 % interval; a person whose whole interval lies under ${percent(min, 0)} is flagged.`}
    >
      <Chart option={option} height={Math.max(160, 40 + rows.length * 28)} label="Estimated accuracy per annotator with its interval" testId="chart-reliability" />
    </Figure>
  );
}

function GoldFigure({ project, annotators }: { project: ProjectDetail; annotators: QualityAnnotator[] }) {
  const min = project.workflow?.gold_min_accuracy || DEFAULT_GOLD_MIN;
  const rows = annotators.filter((a) => a.gold.answered > 0);
  const option = useMemo(
    () =>
      thresholdBarsOption(
        rows.map((a) => ({ label: a.name, value: a.gold.window_accuracy, passed: a.gold.window_accuracy === null || a.gold.window_accuracy >= min })),
        min,
        "gold accuracy",
      ),
    [rows, min],
  );
  if (rows.length === 0) return null;
  return (
    <Figure title="Gold accuracy" note={`Accuracy over each person's latest gold answers; the dashed line is the policy's minimum (${percent(min, 0)}).`}>
      <Chart option={option} height={260} label="Gold accuracy per annotator against the minimum" testId="chart-gold" />
    </Figure>
  );
}

function YesRateFigure({ project, annotators }: { project: ProjectDetail; annotators: QualityAnnotator[] }) {
  const questions = useMemo(() => {
    const keys = new Set(annotators.flatMap((a) => Object.keys(a.yes_rate)));
    const label = new Map((project.schema?.questions ?? []).map((q) => [q.key, q.short_label || q.label]));
    const order = (project.schema?.questions ?? []).map((q) => q.key).filter((k) => keys.has(k));
    const rest = [...keys].filter((k) => !order.includes(k)).sort();
    return [...order, ...rest].map((k) => ({ key: k, label: label.get(k) ?? k }));
  }, [annotators, project.schema]);
  const option = useMemo(
    () =>
      groupedBarsOption(
        questions.map((q) => q.label),
        annotators.map((a) => ({ name: a.name, data: questions.map((q) => a.yes_rate[q.key] ?? null) })),
        "Yes share",
        RUBBER_STAMP_SHARE,
      ),
    [questions, annotators],
  );
  if (questions.length === 0) return null;
  return (
    <Figure title="Yes rate per binary question" note="Share of Yes among each person's Yes/No answers; above the dashed line a question looks rubber-stamped.">
      <Chart option={option} height={300} label="Yes rate per binary question and annotator" testId="chart-yes-rate" />
    </Figure>
  );
}

function QualityTable({ annotators }: { annotators: QualityAnnotator[] }) {
  return (
    <section className="card">
      <h3 className="card-title">Per annotator</h3>
      <div className="table-scroll">
        <table className="table measures-table" aria-label="Per annotator">
          <thead>
            <tr>
              <th>Annotator</th>
              <th>Labels</th>
              <th title="Median and 10th percentile of the time per label">Time (median / p10)</th>
              <th>Rushed</th>
              <th>With peers</th>
              <th>With ground truth</th>
              <th title="Estimated accuracy by the reliability model, with its 95 % interval">Reliability</th>
              <th title="Correct of answered, and the accuracy over all gold answers">Gold</th>
              <th title="Labels started from a model draft: agreement with the draft, and the share submitted unchanged">Drafts</th>
              <th>Flags</th>
            </tr>
          </thead>
          <tbody>
            {annotators.map((a) => (
              <tr key={a.user_id}>
                <th scope="row">
                  {a.name}
                  {a.paused && <span className="badge badge-fail quality-paused">Paused</span>}
                </th>
                <td className="num">{a.labels.toLocaleString()}</td>
                <td className="num">
                  {seconds(a.median_seconds)} / {seconds(a.p10_seconds)}
                </td>
                <td className="num">{percent(a.rushed_share)}</td>
                <td className="num">{percent(a.peer_agreement)}</td>
                <td className="num">{percent(a.truth_agreement)}</td>
                <td className="num">
                  {a.reliability ? `${percent(a.reliability.accuracy)} (${percent(a.reliability.low)}–${percent(a.reliability.high)})` : "—"}
                </td>
                <td className="num">
                  {a.gold.answered > 0 ? `${a.gold.correct}/${a.gold.answered} · ${percent(a.gold.accuracy)}` : "—"}
                </td>
                <td className="num">
                  {a.drafts.labels > 0 ? `${a.drafts.labels} · ${percent(a.drafts.agreement)} · ${percent(a.drafts.unchanged_share)} unchanged` : "—"}
                </td>
                <td>{a.flags.length ? a.flags.map((f) => FLAG_LABEL[f.code] ?? f.code).join(", ") : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

