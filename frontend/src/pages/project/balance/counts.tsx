import { useMemo, useState } from "react";
import type { Distribution, MetaCounts as Meta } from "../../../api/insight";
import { Chart, countBarsOption } from "../../../charts";
import { Figure } from "../figures/figures";

/** How binary values read (the server names them by what they mean after polarity). */
const VALUE_LABEL: Record<string, string> = { satisfied: "Yes (satisfied)", not_satisfied: "No (not satisfied)" };

/** A question's value counts as bars (sideways when the values are many or long). */
export function DistributionFigure({ distribution: d, testId }: { distribution: Distribution; testId?: string }) {
  const { option, rows, horizontal } = useMemo(() => {
    const cats = d.values.map((v) => VALUE_LABEL[v.value] ?? v.value);
    const horizontal = cats.length > 8 || cats.some((c) => c.length > 14);
    const option = countBarsOption(cats, [{ name: "items", data: d.values.map((v) => v.count) }], { horizontal, name: "items" });
    return { option, rows: cats.length, horizontal };
  }, [d.values]);
  const total = d.values.reduce((s, v) => s + v.count, 0);
  return (
    <Figure title={d.label || d.key} note={`${d.kind}; ${total.toLocaleString()} answer${total === 1 ? "" : "s"}.`}>
      <Chart option={option} height={horizontal ? Math.max(180, 40 + rows * 24) : 220} label={`Counts of each value of ${d.label || d.key}`} testId={testId ?? `chart-dist-${d.key}`} />
    </Figure>
  );
}

/** The entry of the counts that holds the items' languages (not a metadata key: capitalised). */
export const LANGUAGE_KEY = "Language";

/** The metadata counts with the items' languages first, when any item has one. */
export function withLanguages(meta: Meta[], languages: readonly { value: string; count: number }[] | undefined): Meta[] {
  if (!languages || !languages.some((l) => l.value !== "")) return meta;
  const values = languages.map((l) => ({ value: l.value || "none", count: l.count }));
  return [{ key: LANGUAGE_KEY, values, distinct: values.length, truncated: false }, ...meta];
}

/** Counts by one metadata key (or the language) at a time, as a table and a bar chart; the target's `by` first. */
export function MetaCounts({ meta, by }: { meta: Meta[]; by?: string }) {
  const preferred = by === "language" ? LANGUAGE_KEY : by?.replace(/^meta\./, "");
  const first = meta.find((m) => m.key === preferred)?.key ?? meta[0]?.key ?? "";
  const [chosen, setChosen] = useState<string | null>(null);
  const key = chosen !== null && meta.some((m) => m.key === chosen) ? chosen : first;
  const m = meta.find((x) => x.key === key);
  const option = useMemo(
    () => countBarsOption(m?.values.map((v) => v.value) ?? [], [{ name: "items", data: m?.values.map((v) => v.count) ?? [] }], { horizontal: true, name: "items" }),
    [m],
  );
  if (!m) return null;
  const total = m.values.reduce((s, v) => s + v.count, 0);
  return (
    <section className="card" aria-label="Counts by metadata">
      <div className="balance-meta-head">
        <h3 className="card-title">Counts by metadata</h3>
        <div className="field field-inline">
          <label htmlFor="meta-key">Key</label>
          <select id="meta-key" value={key} onChange={(e) => setChosen(e.target.value)}>
            {meta.map((x) => (
              <option key={x.key} value={x.key}>
                {x.key}
              </option>
            ))}
          </select>
        </div>
      </div>
      {m.truncated ? (
        <p className="muted" data-testid="meta-truncated">
          {m.distinct.toLocaleString()} distinct values of {m.key}, more than can be listed.
        </p>
      ) : (
        <div className="balance-meta">
          <div className="table-scroll">
            <table className="table measures-table" aria-label={`Counts by ${m.key}`}>
              <thead>
                <tr>
                  <th scope="col">{m.key}</th>
                  <th scope="col" className="num">
                    Items
                  </th>
                  <th scope="col" className="num">
                    Share
                  </th>
                </tr>
              </thead>
              <tbody>
                {m.values.map((v) => (
                  <tr key={v.value}>
                    <th scope="row">{v.value}</th>
                    <td className="num">{v.count.toLocaleString()}</td>
                    <td className="num">{total > 0 ? `${((v.count / total) * 100).toFixed(1)} %` : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Chart option={option} height={Math.max(160, 40 + m.values.length * 28)} label={`Items per value of ${m.key}`} testId="chart-meta" />
        </div>
      )}
    </section>
  );
}
