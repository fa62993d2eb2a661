import { useMemo, useState } from "react";
import type { JudgeGroup, JudgeRow } from "../../../api/insight";
import { Chart, fixed, interval, leaderboardIntervalOption } from "../../../charts";
import { columnsFor, headlineLabel, type Column } from "./columns";

interface Sort {
  id: string;
  desc: boolean;
}

/** Rows in the chosen order; rows without a report (or the figure) always last. */
function sortRows(rows: JudgeRow[], col: Column | undefined, desc: boolean): JudgeRow[] {
  if (!col) return [...rows].sort((a, b) => a.model.localeCompare(b.model) * (desc ? -1 : 1));
  const val = (r: JudgeRow) => (r.report ? (col.value(r.report) ?? null) : null);
  return [...rows].sort((a, b) => {
    const x = val(a);
    const y = val(b);
    if (x === null || y === null) return x === null ? (y === null ? a.model.localeCompare(b.model) : 1) : -1;
    return (desc ? y - x : x - y) || a.model.localeCompare(b.model);
  });
}

/** One question group's leaderboard: a sortable table and the headline figure's 95 % intervals in the same order. */
export function Leaderboard({ group: g }: { group: JudgeGroup }) {
  const cols = useMemo(() => columnsFor(g), [g]);
  const headline = cols.find((c) => c.id === g.headline);
  const [sort, setSort] = useState<Sort>({ id: g.headline, desc: headline?.higherBetter ?? true });
  const col = cols.find((c) => c.id === sort.id);
  const rows = useMemo(() => sortRows(g.rows, col, sort.desc), [g.rows, col, sort.desc]);
  const option = useMemo(
    () =>
      leaderboardIntervalOption(
        rows.filter((r) => r.report).map((r) => {
          const ci = r.report?.ci95?.[g.headline] ?? null;
          return { label: r.model, value: r.report && headline ? (headline.value(r.report) ?? null) : null, lo: ci?.[0] ?? null, hi: ci?.[1] ?? null };
        }),
        headlineLabel(g.headline),
      ),
    [rows, g.headline, headline],
  );
  const scored = rows.filter((r) => r.report).length;
  const click = (c: { id: string; higherBetter: boolean }) =>
    setSort((s) => (s.id === c.id ? { id: c.id, desc: !s.desc } : { id: c.id, desc: c.higherBetter }));
  const aria = (id: string) => (sort.id === id ? (sort.desc ? "descending" : "ascending") : undefined);
  const title = `${g.label || g.key}`;
  return (
    <section className="card judges-group" aria-label={`Leaderboard: ${title}`} data-testid={`leaderboard-${g.key}`}>
      <div className="judges-group-head">
        <h3 className="card-title">{title}</h3>
        <span className="muted">
          {g.kind === "binary" && g.questions.length > 1 ? `all ${g.questions.length} binary questions together` : g.kind} · {g.items.toLocaleString()} decided item
          {g.items === 1 ? "" : "s"} · ranked by {headlineLabel(g.headline).toLowerCase()}
        </span>
      </div>
      <div className="table-scroll">
        <table className="table measures-table judges-table" aria-label={`Leaderboard ${title}`}>
          <thead>
            <tr>
              <th scope="col" aria-sort={aria("model")}>
                <button type="button" className="sort-btn" onClick={() => click({ id: "model", higherBetter: false })}>
                  Model
                </button>
              </th>
              {cols.map((c) => (
                <th key={c.id} scope="col" className="num" aria-sort={aria(c.id)} title={c.title}>
                  <button type="button" className="sort-btn" onClick={() => click(c)}>
                    {c.label}
                  </button>
                </th>
              ))}
              <th scope="col" className="num" title={`Paired bootstrap of the model's ${headlineLabel(g.headline).toLowerCase()} minus the best model's`}>
                Δ to best
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.model} data-model={r.model}>
                <th scope="row">
                  {r.model} {r.model === g.best && <span className="badge badge-pass">best</span>}
                </th>
                {r.report ? (
                  <>
                    {cols.map((c) => (
                      <td key={c.id} className="num">
                        {c.format(c.value(r.report!))}
                        {c.id === g.headline && (
                          <div className="muted judges-ci" title="95 % bootstrap interval">
                            {interval(r.report!.ci95?.[g.headline])}
                          </div>
                        )}
                      </td>
                    ))}
                    <td className="num">
                      <Difference row={r} headline={g.headline} />
                    </td>
                  </>
                ) : (
                  <td colSpan={cols.length + 1} className="muted">
                    {r.reason || "No report."}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {scored > 0 && (
        <Chart option={option} height={Math.max(120, 44 + scored * 36)} label={`${headlineLabel(g.headline)} per model with 95 % intervals, ${title}`} testId={`chart-judges-${g.key}`} />
      )}
    </section>
  );
}

function Difference({ row, headline }: { row: JudgeRow; headline: string }) {
  const d = row.report?.difference?.[headline];
  if (!d) return <>—</>;
  return (
    <span title={`95 % interval ${interval(d.ci95, 3)}, p = ${fixed(d.p_value, 3)}`}>
      {d.estimate >= 0 ? "+" : ""}
      {fixed(d.estimate, 3)}
      <div className="muted judges-ci">{interval(d.ci95)}</div>
    </span>
  );
}
