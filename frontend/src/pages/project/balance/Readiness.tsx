import type { BalanceReport } from "../../../api/insight";
import { fixed } from "../../../charts";

/**
 * The verdict at a glance: ready only when the server says both targets are
 * set and met, and otherwise what each target still needs.
 */
export function Readiness({ report: r }: { report: BalanceReport }) {
  const { readiness: rd, targets: t, binary: b } = r;
  const labels = new Map((b?.dimensions ?? []).map((d) => [d.key, d.label || d.key]));
  const needsNo = new Map((b?.dimensions ?? []).map((d) => [d.key, d.needs_no ?? 0]));
  const needsBin = new Map((b?.histogram ?? []).map((h) => [h.score, h.needs ?? 0]));
  return (
    <section className={`card readiness ${rd.ready ? "readiness-ready" : "readiness-not"}`} aria-label="Readiness" data-testid="readiness">
      <div className="readiness-verdict">
        <span className={`badge readiness-badge ${rd.ready ? "badge-pass" : "badge-fail"}`} data-testid="readiness-verdict">
          {rd.ready ? "Ready" : "Not ready"}
        </span>
        <span className="muted">
          {rd.ready
            ? "Every question's No/Yes ratio exceeds ρ and the score spread is under δ."
            : b === null
              ? "Readiness needs binary questions; this schema has none."
              : t.ratio === undefined || t.spread === undefined
                ? "Readiness needs both a ratio target ρ and a spread target δ."
                : r.items === 0
                  ? "No done item has ground truth yet."
                  : "Collect the items below, then check again."}
        </span>
      </div>
      {b !== null && (
        <ul className="readiness-list">
          <li data-testid="readiness-ratio">
            <Mark met={rd.ratio_met} />
            <strong>Ratio ρ</strong>{" "}
            {t.ratio === undefined ? (
              <span className="muted">no target set</span>
            ) : rd.ratio_met ? (
              <>
                every question above {fixed(t.ratio)} (lowest {fixed(b.min_ratio)})
              </>
            ) : (
              <>
                {rd.need_more_no.length} of {b.dimensions.length} question{b.dimensions.length === 1 ? "" : "s"} need more No items to exceed {fixed(t.ratio)}:
                <ul className="readiness-needs" aria-label="Questions that need more No items">
                  {rd.need_more_no.map((k) => (
                    <li key={k}>
                      {labels.get(k) ?? k}: <strong>{(needsNo.get(k) ?? 0).toLocaleString()}</strong> more No
                    </li>
                  ))}
                </ul>
              </>
            )}
          </li>
          <li data-testid="readiness-spread">
            <Mark met={rd.spread_met} />
            <strong>Spread δ</strong>{" "}
            {t.spread === undefined ? (
              <span className="muted">no target set (spread now {b.spread})</span>
            ) : rd.spread_met ? (
              <>
                spread {b.spread} is under {t.spread}
              </>
            ) : (
              <>
                spread {b.spread} is not under {t.spread}; {rd.bins_need_items.length} score bin{rd.bins_need_items.length === 1 ? "" : "s"} need items:
                <ul className="readiness-needs" aria-label="Score bins that need items">
                  {rd.bins_need_items.map((s) => (
                    <li key={s}>
                      score {s}: <strong>{(needsBin.get(s) ?? 0).toLocaleString()}</strong> more
                    </li>
                  ))}
                </ul>
              </>
            )}
          </li>
        </ul>
      )}
    </section>
  );
}

function Mark({ met }: { met: boolean | null }) {
  if (met === null) return <span className="readiness-mark muted" aria-hidden="true">–</span>;
  return (
    <span className={`readiness-mark ${met ? "readiness-mark-met" : "readiness-mark-not"}`} aria-label={met ? "met" : "not met"}>
      {met ? "✓" : "✗"}
    </span>
  );
}
