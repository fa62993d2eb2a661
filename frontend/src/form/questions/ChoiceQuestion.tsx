import { Kbd } from "./Kbd";
import type { QuestionProps } from "./types";
import { useTranslation } from "react-i18next";

const keyOf = (i: number) => (i < 9 ? String(i + 1) : i === 9 ? "0" : "");

/** One option (choice) or several (multi_choice), each with a digit key. */
export function ChoiceQuestion({ q, value, onChange }: QuestionProps) {
  const { t } = useTranslation();
  const multi = q.kind === "multi_choice";
  const chosen = multi ? (Array.isArray(value) ? value : []) : [];
  const isOn = (k: string) => (multi ? chosen.includes(k) : value === k);
  function pick(k: string) {
    if (!multi) return onChange(value === k ? undefined : k);
    const next = isOn(k) ? chosen.filter((c) => c !== k) : [...chosen, k];
    const ordered = (q.options ?? []).map((o) => o.key).filter((o) => next.includes(o));
    onChange(ordered.length ? ordered : undefined);
  }
  return (
    <div className="answer-row">
      <div className="options" role={multi ? "group" : "radiogroup"} aria-label={q.label}>
        {(q.options ?? []).map((o, i) => (
          <button
            key={o.key}
            type="button"
            role={multi ? "checkbox" : "radio"}
            aria-checked={isOn(o.key)}
            tabIndex={-1}
            className={isOn(o.key) ? "option on" : "option"}
            onClick={() => pick(o.key)}
          >
            {keyOf(i) && <Kbd>{keyOf(i)}</Kbd>}
            <span className="option-label">{o.label}</span>
            {o.help && <span className="option-help">{o.help}</span>}
          </button>
        ))}
      </div>
      {multi && (q.min !== undefined || q.max !== undefined) && (
        <p className="polarity">
          {q.min !== undefined && q.max !== undefined
            ? t("question.chooseRange", { min: q.min, max: q.max })
            : q.min !== undefined
              ? t("question.chooseAtLeast", { min: q.min })
              : t("question.chooseAtMost", { max: q.max })}
        </p>
      )}
    </div>
  );
}
