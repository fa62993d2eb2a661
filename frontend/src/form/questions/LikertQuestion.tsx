import { Kbd } from "./Kbd";
import type { QuestionProps } from "./types";
import { useTranslation } from "react-i18next";

/** The key that picks value v on a min..max scale, if any. */
export function likertKeyLabel(v: number, min: number, max: number): string | null {
  if (v >= 0 && v <= 9) return String(v);
  if (v === 10 && max === 10 && min >= 1) return "0";
  return null;
}

/** A min..max scale with an anchor text under each anchored point. */
export function LikertQuestion({ q, value, onChange }: QuestionProps) {
  const { t } = useTranslation();
  const min = q.min ?? 1;
  const max = q.max ?? 5;
  const points = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  const anchor = new Map((q.anchors ?? []).map((a) => [a.value, a.label]));
  const chosen = typeof value === "number" ? anchor.get(value) : undefined;
  const dense = points.length > 7;
  return (
    <div className="answer-row">
      <div className={dense ? "scale dense" : "scale"} role="radiogroup" aria-label={q.label}>
        {points.map((p) => {
          const key = likertKeyLabel(p, min, max);
          return (
            <button
              key={p}
              type="button"
              role="radio"
              aria-checked={value === p}
              tabIndex={-1}
              className={value === p ? "point on" : "point"}
              onClick={() => onChange(value === p ? undefined : p)}
              title={anchor.get(p)}
            >
              <span className="point-value">{p}</span>
              {!dense && anchor.has(p) && <span className="point-anchor">{anchor.get(p)}</span>}
              {key && <span className="point-key">{key}</span>}
            </button>
          );
        })}
        {q.allow_na && (
          <button
            type="button"
            role="radio"
            aria-checked={value === "na"}
            tabIndex={-1}
            className={value === "na" ? "point na on" : "point na"}
            onClick={() => onChange(value === "na" ? undefined : "na")}
          >
            <span className="point-value">{t("question.na")}</span>
            <span className="point-key">A</span>
          </button>
        )}
      </div>
      {dense && anchor.size > 0 && (
        <ul className="anchor-list">
          {[...anchor.entries()]
            .sort((a, b) => b[0] - a[0])
            .map(([v, l]) => (
              <li key={v} className={value === v ? "on" : undefined}>
                <b>{v}</b> {l}
              </li>
            ))}
        </ul>
      )}
      {chosen && !dense && <p className="chosen-anchor" aria-live="polite">{`${value}: ${chosen}`}</p>}
      {!q.anchors?.length && <p className="polarity"><Kbd>←</Kbd> <Kbd>→</Kbd> {t("question.stepScale")}</p>}
    </div>
  );
}
