import type { ProjectStats, Stage } from "../../../api/workflowTypes";

export const STAGE_ORDER: Stage[] = ["criteria", "criteria_review", "split", "checklist", "label", "review", "adjudicate", "done", "dropped"];
export const STAGE_LABEL: Record<string, string> = {
  criteria: "Criteria",
  criteria_review: "Criteria review",
  split: "Split",
  checklist: "Checklist",
  label: "Label",
  review: "Review",
  adjudicate: "Adjudicate",
  done: "Done",
  dropped: "Dropped",
  flagged: "Flagged",
};

/** Item counts per stage (flagged items counted apart), as one stacked bar with a legend. */
export function StageBar({ stats }: { stats: ProjectStats }) {
  const counts = new Map<string, number>();
  let flagged = 0;
  for (const c of stats.items) {
    if (c.flagged) flagged += c.count;
    else counts.set(c.stage, (counts.get(c.stage) ?? 0) + c.count);
  }
  const parts = [...STAGE_ORDER.filter((s) => counts.get(s)).map((s) => ({ key: s, n: counts.get(s)! })), ...(flagged ? [{ key: "flagged", n: flagged }] : [])];
  const total = parts.reduce((n, p) => n + p.n, 0);
  if (total === 0) return <p className="muted">No items yet. Import some in the Items tab.</p>;
  const done = counts.get("done") ?? 0;
  return (
    <div className="stage-bar-wrap">
      <div className="stage-headline">
        <span className="big">{total.toLocaleString()}</span> items ·{" "}
        <span className="big">{Math.round((100 * done) / total)}%</span> done
      </div>
      <div className="stage-bar" role="img" aria-label={parts.map((p) => `${STAGE_LABEL[p.key]} ${p.n}`).join(", ")}>
        {parts.map((p) => (
          <span key={p.key} className={`seg-${p.key}`} style={{ flexGrow: p.n }} title={`${STAGE_LABEL[p.key]}: ${p.n}`} />
        ))}
      </div>
      <ul className="stage-legend">
        {parts.map((p) => (
          <li key={p.key} data-stage={p.key}>
            <span className={`swatch seg-${p.key}`} /> {STAGE_LABEL[p.key]} <strong>{p.n.toLocaleString()}</strong>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Submitted work per person and stage. */
export function ThroughputTable({ stats }: { stats: ProjectStats }) {
  if (stats.throughput.length === 0) return <p className="muted">Nobody has submitted work yet.</p>;
  const rows = [...stats.throughput].sort((a, b) => a.name.localeCompare(b.name) || a.stage.localeCompare(b.stage));
  return (
    <table className="table" aria-label="Throughput per annotator">
      <thead>
        <tr>
          <th>Person</th>
          <th>Stage</th>
          <th className="num-col">Today</th>
          <th className="num-col">Total</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.user_id}-${r.stage}`}>
            <td>{r.name}</td>
            <td>
              <span className={`stage-chip stage-${r.stage}`}>{STAGE_LABEL[r.stage] ?? r.stage}</span>
            </td>
            <td className="num-col">{r.today}</td>
            <td className="num-col">{r.submitted}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
