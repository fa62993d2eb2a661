import { useMemo, type ReactNode } from "react";
import { Chart, heatmapOption, intervalOption } from "../../../charts";

/** A titled card around one chart, with a line saying how to read it. */
export function Figure({ title, note, children }: { title: string; note?: ReactNode; children: ReactNode }) {
  return (
    <section className="card chart-card" aria-label={title}>
      <h3 className="card-title">{title}</h3>
      {children}
      {note && <p className="chart-note muted">{note}</p>}
    </section>
  );
}

interface AlphaRow {
  key: string;
  label: string;
  alpha: number | null;
  alpha_ci: number[] | null;
}

/** Krippendorff's α per question with its 95 % bootstrap interval. */
export function AlphaFigure({ questions }: { questions: AlphaRow[] }) {
  const option = useMemo(
    () =>
      intervalOption(
        questions.map((q) => ({ label: q.label || q.key, value: q.alpha, lo: q.alpha_ci?.[0] ?? null, hi: q.alpha_ci?.[1] ?? null })),
      ),
    [questions],
  );
  return (
    <Figure title="Krippendorff's α per question" note="Dots are α; bars are the 95 % bootstrap interval. 1 is perfect agreement, 0 is chance; a question without a dot has no α (e.g. every rating the same).">
      <Chart option={option} height={Math.max(140, 48 + questions.length * 44)} label="Krippendorff's alpha per question with 95 % intervals" testId="chart-alpha" />
    </Figure>
  );
}

interface Matrix {
  annotators: { user_id: string; name: string }[];
  values: (number | null)[][];
}

/** Pairwise agreement between annotators. */
export function MatrixFigure({ matrix, note }: { matrix: Matrix; note?: ReactNode }) {
  const option = useMemo(() => heatmapOption(matrix.annotators, matrix.values), [matrix]);
  if (matrix.annotators.length < 2) return null;
  return (
    <Figure title="Annotator × annotator agreement" note={note ?? "Share of agreeing ratings on the units both people rated; blank where they share none."}>
      <Chart option={option} height={Math.max(220, 90 + matrix.annotators.length * 36)} label="Annotator by annotator agreement heatmap" testId="chart-matrix" />
    </Figure>
  );
}
