import { useMemo } from "react";
import { insightKeys, useInsightApi, type BalanceBinary, type BalanceReport } from "../../../api/insight";
import { Chart, correlationOption, countBarsOption, fixed, histogramOption, percent, ratioBarsOption, tokens } from "../../../charts";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";
import { Spinner } from "../../../components/Spinner";
import { Figure } from "../figures/figures";
import { ComputingBadge } from "../figures/ComputingBadge";
import { useFigures } from "../figures/useFigures";
import { useProject } from "../useProject";
import { DistributionFigure, MetaCounts, withLanguages } from "./counts";
import { Readiness } from "./Readiness";
import { TargetsForm } from "./TargetsForm";
import "../../../charts/charts.css";
import "../figures/measures.css";
import "./balance.css";

/**
 * Balance: is the ground truth balanced the way the benchmark requires, and
 * what is still missing (D3-Omni's construction loop: every No/Yes ratio above
 * ρ and the total-score histogram's spread under δ).
 */
export function BalanceTab() {
  const project = useProject();
  const api = useInsightApi();
  const q = useFigures(insightKeys.balance(project.id), () => api.balance(project.id));
  if (q.isPending) return <Spinner label="Loading balance…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="Could not load the balance." />;
  const r = q.data;
  const lead = project.my_roles.includes("lead");
  return (
    <div className="measures">
      <BalanceHeader report={r} />
      <div className="balance-top">
        <Readiness report={r} />
        {lead && <TargetsForm pid={project.id} report={r} />}
      </div>
      {r.items === 0 ? (
        r.status === "computing" ? (
          <Spinner label="Computing the balance for the first time…" />
        ) : (
          <EmptyState title="No ground truth yet">The balance is computed over done items with ground truth.</EmptyState>
        )
      ) : (
        <BalanceBody report={r} />
      )}
    </div>
  );
}

function BalanceHeader({ report: r }: { report: BalanceReport }) {
  return (
    <header className="measures-head">
      <div>
        <h2>Balance</h2>
        <p className="muted" data-testid="balance-computed">
          {r.computed_at ? `Computed ${formatDateTime(r.computed_at)} over the newest ground truth of done items; gold and the calibration pool are left out.` : "Not computed yet."}
        </p>
      </div>
      <ComputingBadge status={r.status} />
      <dl className="measures-facts">
        <div>
          <dt>Items</dt>
          <dd>{r.items.toLocaleString()}</dd>
        </div>
        {r.binary && (
          <>
            <div>
              <dt>Lowest No/Yes</dt>
              <dd>{fixed(r.binary.min_ratio)}</dd>
            </div>
            <div>
              <dt>Spread</dt>
              <dd>{r.binary.spread}</dd>
            </div>
          </>
        )}
      </dl>
    </header>
  );
}

function BalanceBody({ report: r }: { report: BalanceReport }) {
  return (
    <>
      {r.binary && <BinaryFigures binary={r.binary} ratio={r.targets.ratio ?? null} spread={r.targets.spread ?? null} />}
      {r.binary && <DimensionTable binary={r.binary} />}
      {r.distributions.length > 0 && (
        <section aria-label="Other questions" className="measures">
          <h3 className="balance-section-title">Other questions</h3>
          <div className="measures-grid">
            {r.distributions.map((d) => (
              <DistributionFigure key={d.key} distribution={d} />
            ))}
          </div>
        </section>
      )}
      {r.positions?.map((p) => <PositionFigure key={p.key} bias={p} />)}
      <MetaCounts meta={withLanguages(r.meta, r.languages)} by={r.targets.by} />
    </>
  );
}

type Positions = BalanceReport["positions"][number];

/**
 * A pairwise question's labels by the output chosen and by the position it was
 * shown in: with orders shuffled per label, the first and second positions are
 * chosen about equally often unless the annotators favour a position.
 */
function PositionFigure({ bias: p }: { bias: Positions }) {
  const option = useMemo(() => {
    const c = tokens();
    return countBarsOption(
      ["A (first shown)", "B (second shown)", "Tie"],
      [
        { name: "By output chosen", data: p.outputs.map((x) => x.count), color: c.primary },
        { name: "By position shown", data: p.positions.map((x) => x.count), color: c.warn },
      ],
      { name: "labels" },
    );
  }, [p]);
  const share = (xs: Positions["positions"], v: string) => percent(xs.find((x) => x.value === v)?.share ?? null);
  return (
    <Figure
      title={`Position bias: ${p.label || p.key}`}
      note={
        <span data-testid={`position-bias-${p.key}`}>
          {p.labels.toLocaleString()} labels. Outputs chosen: A {share(p.outputs, "A")}, B {share(p.outputs, "B")}, tie {share(p.outputs, "tie")}. Positions
          shown: first {share(p.positions, "A")}, second {share(p.positions, "B")}, tie {share(p.positions, "tie")}. Each label's answer is mapped back to the
          order it was shown in.
        </span>
      }
    >
      <Chart option={option} height={260} label={`Labels of ${p.label || p.key} by output chosen and by position shown`} testId={`chart-positions-${p.key}`} />
    </Figure>
  );
}

function BinaryFigures({ binary: b, ratio, spread }: { binary: BalanceBinary; ratio: number | null; spread: number | null }) {
  const labels = useMemo(() => new Map(b.dimensions.map((d) => [d.key, d.label || d.key])), [b.dimensions]);
  const counts = useMemo(() => {
    const c = tokens();
    const cats = b.dimensions.map((d) => d.label || d.key);
    const open = b.dimensions.some((d) => d.open > 0);
    return countBarsOption(
      cats,
      [
        { name: "Yes", data: b.dimensions.map((d) => d.yes), color: c.success, stack: "n" },
        { name: "No", data: b.dimensions.map((d) => d.no), color: c.danger, stack: "n" },
        ...(open ? [{ name: "Open N/A", data: b.dimensions.map((d) => d.open), color: c.muted, stack: "n" }] : []),
      ],
      { name: "items" },
    );
  }, [b.dimensions]);
  const ratios = useMemo(
    () => ratioBarsOption(b.dimensions.map((d) => ({ label: d.label || d.key, ratio: d.ratio, met: d.meets_ratio })), ratio),
    [b.dimensions, ratio],
  );
  const hist = useMemo(() => histogramOption(b.histogram, spread), [b.histogram, spread]);
  const keys = useMemo(() => b.dimensions.map((d) => d.key), [b.dimensions]);
  // note: a question correlates with itself (r = 1) only when both answers occur; a constant one is n/a
  const corr = useMemo(
    () => correlationOption(keys, labels, [...b.dimensions.map((d) => ({ a: d.key, b: d.key, r: d.yes > 0 && d.no > 0 ? 1 : null, flagged: false })), ...b.correlations]),
    [keys, labels, b.dimensions, b.correlations],
  );
  const flagged = b.correlations.filter((c) => c.flagged);
  const wide = b.dimensions.length > 12;
  return (
    <div className="measures-grid">
      <Figure title="Yes and No per question" note="After polarity and N/A mapping: Yes means the requirement is satisfied.">
        <Chart option={counts} height={wide ? 360 : 280} label="Yes and No counts per binary question" testId="chart-yes-no" />
      </Figure>
      <Figure
        title="No/Yes ratio per question"
        note={ratio !== null ? `Green bars exceed the target ρ = ${fixed(ratio)} (dashed); red ones need more No items.` : "Set a ratio target ρ to mark which questions need more No items."}
      >
        <Chart option={ratios} height={wide ? 360 : 280} label="No to Yes ratio per binary question against the target" testId="chart-ratio" />
      </Figure>
      <Figure
        title="Total score histogram"
        note={
          spread !== null
            ? `Items per total score (satisfied questions per item). Uniform within δ = ${spread}: every bin at or above the dashed line; the light part of a bar is what it still needs.`
            : "Items per total score (satisfied questions per item). Set a spread target δ to see which bins need items."
        }
      >
        <Chart option={hist} height={280} label="Histogram of total scores against a uniform target" testId="chart-histogram" />
      </Figure>
      {keys.length > 1 && (
        <Figure
          title="Correlation between questions"
          note={
            flagged.length > 0 ? (
              <>
                Pearson's r over items resolving both; outlined pairs have |r| &gt; 0.6:{" "}
                <span data-testid="flagged-pairs">
                  {flagged.map((c) => `${labels.get(c.a) ?? c.a} × ${labels.get(c.b) ?? c.b} (${fixed(c.r)})`).join("; ")}
                </span>
                .
              </>
            ) : (
              "Pearson's r over items resolving both; no pair has |r| > 0.6."
            )
          }
        >
          <Chart option={corr} height={Math.max(260, 120 + keys.length * (wide ? 18 : 34))} label="Correlation matrix between binary questions" testId="chart-correlation" />
        </Figure>
      )}
    </div>
  );
}

function DimensionTable({ binary: b }: { binary: BalanceBinary }) {
  const open = b.dimensions.some((d) => d.open > 0);
  const target = b.dimensions.some((d) => d.meets_ratio !== undefined);
  return (
    <section className="card">
      <h3 className="card-title">Binary questions</h3>
      <div className="table-scroll">
        <table className="table measures-table" aria-label="Binary questions">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col" className="num">
                Yes
              </th>
              <th scope="col" className="num">
                No
              </th>
              {open && (
                <th scope="col" className="num">
                  Open N/A
                </th>
              )}
              <th scope="col" className="num">
                No/Yes
              </th>
              {target && <th scope="col">Target</th>}
            </tr>
          </thead>
          <tbody>
            {b.dimensions.map((d) => (
              <tr key={d.key}>
                <th scope="row">
                  {d.label || d.key}
                  <div className="muted mono">{d.key}</div>
                </th>
                <td className="num">{d.yes.toLocaleString()}</td>
                <td className="num">{d.no.toLocaleString()}</td>
                {open && <td className="num">{d.open.toLocaleString()}</td>}
                <td className="num">{fixed(d.ratio)}</td>
                {target && (
                  <td>
                    {d.meets_ratio ? (
                      <span className="badge badge-pass">Met</span>
                    ) : (
                      <span className="badge badge-fail">{(d.needs_no ?? 0).toLocaleString()} more No</span>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
