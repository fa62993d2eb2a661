import { useMemo, useState, type FormEvent } from "react";
import { insightKeys, useInsightApi, type JudgeBoard, type JudgeGroup, type JudgeOptions } from "../../../api/insight";
import { Chart, fixed, judgeScatterOption, type ScorePoint } from "../../../charts";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";
import { Spinner } from "../../../components/Spinner";
import { Figure } from "../figures/figures";
import { ComputingBadge } from "../figures/ComputingBadge";
import { useFigures } from "../figures/useFigures";
import { useProject } from "../useProject";
import { CouplingFigure } from "./Coupling";
import { Leaderboard } from "./Leaderboard";
import { PredictionsImport } from "./PredictionsImport";
import "../../../charts/charts.css";
import "../figures/measures.css";
import "../balance/balance.css";
import "./judges.css";

/**
 * Judges: every imported model's predictions scored against the ground truth,
 * one leaderboard per question group, and judge against human score for one
 * model. Leads import predictions here.
 */
export function JudgesTab() {
  const project = useProject();
  const api = useInsightApi();
  const [opts, setOpts] = useState<JudgeOptions>({});
  const q = useFigures(insightKeys.judges(project.id, opts), () => api.judges(project.id, opts), { keepPrevious: true });
  const lead = (project.my_roles ?? []).includes("lead");
  return (
    <div className="measures">
      <JudgesHeader board={q.data} />
      {lead && <PredictionsImport project={project} />}
      <OptionsForm value={opts} onApply={setOpts} />
      {q.isPending ? (
        <Spinner label="Loading the leaderboard…" />
      ) : q.isError ? (
        <ErrorMessage error={q.error} title="Could not load the leaderboard." />
      ) : q.data.models.length === 0 ? (
        <EmptyState title="No predictions yet">
          {lead ? "Import a model's predictions above to score it against the ground truth." : "A lead imports a model's predictions to score it against the ground truth."}
        </EmptyState>
      ) : q.data.groups.length === 0 ? (
        q.data.status === "computing" ? (
          <Spinner label="Scoring the judges for the first time…" />
        ) : (
          <EmptyState title="Nothing to score">The leaderboard scores binary, Likert and pairwise questions of done items with ground truth.</EmptyState>
        )
      ) : (
        <JudgesBody board={q.data} />
      )}
    </div>
  );
}

function JudgesHeader({ board: b }: { board?: JudgeBoard }) {
  return (
    <header className="measures-head">
      <div>
        <h2>Judges</h2>
        <p className="muted" data-testid="judges-computed">
          {b?.computed_at
            ? `Computed ${formatDateTime(b.computed_at)} against the newest ground truth; intervals are 95 % bootstrap percentiles${b.cluster_key ? ` over ${b.cluster_key} clusters` : ""}${b.strata_key ? ` within ${b.strata_key} strata` : ""}.`
            : "Not computed yet."}
        </p>
      </div>
      <ComputingBadge status={b?.status} />
      {b && (
        <dl className="measures-facts">
          <div>
            <dt>Models</dt>
            <dd>{b.models.length}</dd>
          </div>
          <div>
            <dt>Question groups</dt>
            <dd>{b.groups.length}</dd>
          </div>
        </dl>
      )}
    </header>
  );
}

/** The bootstrap's metadata keys; applied together. */
function OptionsForm({ value, onApply }: { value: JudgeOptions; onApply: (o: JudgeOptions) => void }) {
  const [cluster, setCluster] = useState(value.cluster_key ?? "");
  const [strata, setStrata] = useState(value.strata_key ?? "");
  const [system, setSystem] = useState(value.system_key ?? "");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ cluster_key: cluster.trim() || undefined, strata_key: strata.trim() || undefined, system_key: system.trim() || undefined });
  };
  return (
    <form className="card judges-options" onSubmit={submit} aria-label="Leaderboard options">
      <div className="field">
        <label htmlFor="judges-cluster">Cluster key</label>
        <input id="judges-cluster" value={cluster} onChange={(e) => setCluster(e.target.value)} placeholder="e.g. source" />
      </div>
      <div className="field">
        <label htmlFor="judges-strata">Strata key</label>
        <input id="judges-strata" value={strata} onChange={(e) => setStrata(e.target.value)} placeholder="e.g. split" />
      </div>
      <div className="field">
        <label htmlFor="judges-system">System key</label>
        <input id="judges-system" value={system} onChange={(e) => setSystem(e.target.value)} placeholder="e.g. generator" />
      </div>
      <button type="submit" className="btn">
        Apply
      </button>
      <small className="field-hint judges-options-hint">
        Item metadata keys: clusters and strata shape the bootstrap intervals; the system key adds system-level correlations to score questions.
      </small>
    </form>
  );
}

function JudgesBody({ board: b }: { board: JudgeBoard }) {
  return (
    <>
      <ScatterFigure board={b} />
      <CouplingFigure board={b} />
      {b.groups.map((g) => (
        <Leaderboard key={g.key} group={g} />
      ))}
      {b.groups.some((g) => g.rows.some((r) => r.system)) && <SystemTable groups={b.groups} />}
    </>
  );
}

/** Judge against human score on one score question for one model. */
function ScatterFigure({ board: b }: { board: JudgeBoard }) {
  const groups = useMemo(() => b.groups.filter((g) => g.kind === "score" && g.rows.some((r) => r.points.length > 0)), [b.groups]);
  const [groupKey, setGroupKey] = useState<string | null>(null);
  const [model, setModel] = useState<string | null>(null);
  const g = groups.find((x) => x.key === groupKey) ?? groups[0];
  const models = g ? g.rows.filter((r) => r.points.length > 0).map((r) => r.model) : [];
  const m = model !== null && models.includes(model) ? model : g?.best && models.includes(g.best) ? g.best : models[0];
  const row = g?.rows.find((r) => r.model === m);
  if (!g || !row || !m) return null;
  const total = row.points.reduce((s, p) => s + p.count, 0);
  return (
    <Figure
      title="Judge vs human score"
      note={`${total.toLocaleString()} items; a dot's size is how many items have that pair of scores; on the dashed line the judge agrees with the ground truth. Pearson r ${fixed(row.report?.pearson, 3)}.`}
    >
      <div className="judges-scatter-controls">
        <div className="field field-inline">
          <label htmlFor="scatter-question">Question</label>
          <select id="scatter-question" value={g.key} onChange={(e) => setGroupKey(e.target.value)}>
            {groups.map((x) => (
              <option key={x.key} value={x.key}>
                {x.label || x.key}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor="scatter-model">Model</label>
          <select id="scatter-model" value={m} onChange={(e) => setModel(e.target.value)}>
            {models.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ScatterChart points={row.points} model={m} question={g.label || g.key} />
    </Figure>
  );
}

function ScatterChart({ points, model, question }: { points: ScorePoint[]; model: string; question: string }) {
  const option = useMemo(() => judgeScatterOption(points, model), [points, model]);
  return <Chart option={option} height={340} label={`Judge score of ${model} against the human score on ${question}`} testId="chart-scatter" />;
}

/** System-level correlations (per system mean judge score against the human mean). */
function SystemTable({ groups }: { groups: JudgeGroup[] }) {
  const rows = groups.flatMap((g) => g.rows.filter((r) => r.system).map((r) => ({ g, r, s: r.system! })));
  return (
    <section className="card">
      <h3 className="card-title">System-level correlation</h3>
      <div className="table-scroll">
        <table className="table measures-table" aria-label="System-level correlation">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">Model</th>
              <th scope="col" className="num">
                Systems
              </th>
              <th scope="col" className="num">
                Pearson r
              </th>
              <th scope="col" className="num">
                Spearman ρ
              </th>
              <th scope="col" className="num">
                Kendall τb
              </th>
              <th scope="col" className="num" title="Pearson's r leaving each system out: lowest and highest">
                Leave one out
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ g, r, s }) => {
              const loo = s.leave_one_out.map((x) => x.pearson).filter((v): v is number => v !== null);
              return (
                <tr key={`${g.key}/${r.model}`}>
                  <th scope="row">{g.label || g.key}</th>
                  <td>{r.model}</td>
                  <td className="num">{s.systems.length}</td>
                  <td className="num">{fixed(s.pearson, 3)}</td>
                  <td className="num">{fixed(s.spearman, 3)}</td>
                  <td className="num">{fixed(s.kendall_tau_b, 3)}</td>
                  <td className="num">{loo.length ? `${fixed(Math.min(...loo), 3)} – ${fixed(Math.max(...loo), 3)}` : "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
