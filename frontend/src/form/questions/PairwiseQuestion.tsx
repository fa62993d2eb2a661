import { Kbd } from "./Kbd";
import type { QuestionProps } from "./types";
import { useTranslation } from "react-i18next";

/** Response A / Response B (/ Tie), in the order the responses are shown. */
export function PairwiseQuestion({ q, value, onChange }: QuestionProps) {
  const { t } = useTranslation();
  const opts = [
    { v: "A", label: t("question.aBetter"), key: "A" },
    ...(q.allow_tie ? [{ v: "tie", label: t("question.tie"), key: "T" }] : []),
    { v: "B", label: t("question.bBetter"), key: "B" },
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
