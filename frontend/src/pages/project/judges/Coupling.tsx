import { useMemo, useState } from "react";
import type { JudgeBoard, JudgeReport } from "../../../api/insight";
import { Chart, correlationOption, type CorrelationCell } from "../../../charts";
import { Figure } from "../figures/figures";

type Coupling = NonNullable<JudgeReport["coupling"]>;
type MatrixKey = "judge" | "reference" | "excess" | "yes_side" | "no_side";

const MATRICES: { key: MatrixKey; label: string; note: string }[] = [
  { key: "judge", label: "Judge", note: "Pearson's r of the judge's Yes/No answers to two questions over the items answering both (D3-Omni's Σ)." },
  { key: "reference", label: "Ground truth", note: "The same correlation on the ground truth: the coupling the data itself has." },
  { key: "excess", label: "Excess", note: "Judge minus ground truth: coupling the judge adds (a halo), not present in the data." },
  { key: "yes_side", label: "Yes side", note: "The judge's answers over items whose ground truth is Yes on both questions: its misses there go together (confirmation-side halo)." },
  { key: "no_side", label: "No side", note: "The judge's answers over items whose ground truth is No on both questions: whether it overlooks both defects together (defect-side halo)." },
];

/**
 * The cells on and above the diagonal of a coupling matrix (the diagonal is null for a question
 * whose answers are constant); a pair is flagged above r = 0.6, as D3-Omni does.
 */
export function couplingCells(c: Coupling, m: MatrixKey): CorrelationCell[] {
  const cells: CorrelationCell[] = [];
  const q = c.questions;
  for (let a = 0; a < q.length; a++) {
    for (let b = a; b < q.length; b++) {
      const r = c[m][a]?.[b] ?? null;
      cells.push({ a: q[a], b: q[b], r, flagged: a !== b && m !== "reference" && r !== null && r > 0.6 });
    }
  }
  return cells;
}

/**
 * The dimension-coupling heatmap of one model on the binary checklist: which
 * questions the judge decides together rather than each on its own.
 */
export function CouplingFigure({ board: b }: { board: JudgeBoard }) {
  const group = b.groups.find((g) => g.rows.some((r) => r.report?.coupling));
  const labels = useMemo(() => new Map(b.groups.filter((g) => g.questions.length === 1).map((g) => [g.questions[0], g.label || g.key])), [b.groups]);
  const rows = group?.rows.filter((r) => r.report?.coupling) ?? [];
  const [model, setModel] = useState<string | null>(null);
  const [matrix, setMatrix] = useState<MatrixKey>("judge");
  const row = rows.find((r) => r.model === model) ?? rows.find((r) => r.model === group?.best) ?? rows[0];
  const c = row?.report?.coupling;
  const option = c ? correlationOption(c.questions, labels, couplingCells(c, matrix)) : null;
  if (!group || !row || !c || !option) return null;
  const m = MATRICES.find((x) => x.key === matrix)!;
  const wide = c.questions.length > 12;
  return (
    <Figure
      title="Dimension coupling"
      note={
        <>
          {m.note} Outlined pairs exceed r = 0.6.{" "}
          <span data-testid="coupling-summary">
            {row.model}: {c.coupled} coupled {c.coupled === 1 ? "pair" : "pairs"} (r &gt; 0.6), {c.strong} strongly entangled (r &gt; 0.8) of {(c.questions.length * (c.questions.length - 1)) / 2}.
          </span>{" "}
          Cells marked n/a are undetermined (too few items, or a constant answer).
        </>
      }
    >
      <div className="judges-scatter-controls">
        <div className="field field-inline">
          <label htmlFor="coupling-model">Judge</label>
          <select id="coupling-model" value={row.model} onChange={(e) => setModel(e.target.value)}>
            {rows.map((r) => (
              <option key={r.model} value={r.model}>
                {r.model}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor="coupling-matrix">Matrix</label>
          <select id="coupling-matrix" value={matrix} onChange={(e) => setMatrix(e.target.value as MatrixKey)}>
            {MATRICES.map((x) => (
              <option key={x.key} value={x.key}>
                {x.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Chart
        option={option}
        height={Math.max(260, 120 + c.questions.length * (wide ? 18 : 34))}
        label={`${m.label} dimension-coupling matrix of ${row.model} over the binary questions`}
        testId="chart-coupling"
      />
    </Figure>
  );
}
