import { Kbd } from "./Kbd";
import type { QuestionProps } from "./types";

/** Yes / No (/ N/A). A "defect" question says what Yes means. */
export function BinaryQuestion({ q, value, onChange }: QuestionProps) {
  const opts: { v: string; label: string; key: string }[] = [
    { v: "yes", label: "Yes", key: "Y" },
    { v: "no", label: "No", key: "N" },
  ];
  if (q.allow_na) opts.push({ v: "na", label: "N/A", key: "A" });
  return (
    <div className="answer-row">
      <div className="choices" role="radiogroup" aria-label={q.label}>
        {opts.map((o) => (
          <button
            key={o.v}
            type="button"
            role="radio"
            aria-checked={value === o.v}
            tabIndex={-1}
            className={`choice choice-${o.v}${value === o.v ? " on" : ""}`}
            onClick={() => onChange(value === o.v ? undefined : o.v)}
          >
            <Kbd>{o.key}</Kbd> {o.label}
          </button>
        ))}
      </div>
      {q.yes_means === "defect" && <p className="polarity">Yes means the defect is present.</p>}
      {q.allow_na && q.na_means && q.na_means !== "missing" && (
        <p className="na-note">N/A counts as {q.na_means === "satisfied" ? "satisfied" : "not satisfied"}.</p>
      )}
    </div>
  );
}
