import type { ChecklistAnswer } from "../../api";
import type { QuestionProps } from "./types";

/** Sub-items each scored 0..max; ← → pick the item, digits score it. */
export function ChecklistQuestion({ q, value, onChange, sub, setSub }: QuestionProps) {
  const scores: ChecklistAnswer = value && typeof value === "object" && !Array.isArray(value) ? (value as ChecklistAnswer) : {};
  function score(key: string, v: number) {
    const next = { ...scores };
    if (next[key] === v) delete next[key];
    else next[key] = v;
    onChange(Object.keys(next).length ? next : undefined);
  }
  return (
    <ul className="checklist">
      {(q.items ?? []).map((it, i) => (
        <li key={it.key} className={i === sub ? "check-item current" : "check-item"} onClick={() => setSub(i)}>
          <div className="check-text">
            <span className="check-label">{it.label}</span>
            {it.help && <span className="check-help">{it.help}</span>}
          </div>
          <div className="check-scores" role="radiogroup" aria-label={it.label}>
            {Array.from({ length: it.max + 1 }, (_, v) => (
              <button
                key={v}
                type="button"
                role="radio"
                aria-checked={scores[it.key] === v}
                tabIndex={-1}
                className={scores[it.key] === v ? "score on" : "score"}
                onClick={() => score(it.key, v)}
              >
                {v}
              </button>
            ))}
          </div>
        </li>
      ))}
    </ul>
  );
}
