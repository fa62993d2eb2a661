import { Kbd } from "./Kbd";
import type { QuestionProps } from "./types";

/** Response A / Response B (/ Tie), in the order the responses are shown. */
export function PairwiseQuestion({ q, value, onChange }: QuestionProps) {
  const opts = [
    { v: "A", label: "A is better", key: "A" },
    ...(q.allow_tie ? [{ v: "tie", label: "Tie", key: "T" }] : []),
    { v: "B", label: "B is better", key: "B" },
  ];
  return (
    <div className="choices pairwise" role="radiogroup" aria-label={q.label}>
      {opts.map((o) => (
        <button
          key={o.v}
          type="button"
          role="radio"
          aria-checked={value === o.v}
          tabIndex={-1}
          className={`choice choice-${o.v.toLowerCase()}${value === o.v ? " on" : ""}`}
          onClick={() => onChange(value === o.v ? undefined : o.v)}
        >
          <Kbd>{o.key}</Kbd> {o.label}
        </button>
      ))}
    </div>
  );
}
