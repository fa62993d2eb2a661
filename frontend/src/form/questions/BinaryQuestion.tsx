import { Kbd } from "./Kbd";
import type { QuestionProps } from "./types";
import { useTranslation } from "react-i18next";

/** Yes / No (/ N/A). A "defect" question says what Yes means. */
export function BinaryQuestion({ q, value, onChange }: QuestionProps) {
  const { t } = useTranslation();
  const opts: { v: string; label: string; key: string }[] = [
    { v: "yes", label: t("question.yes"), key: "Y" },
    { v: "no", label: t("question.no"), key: "N" },
  ];
  if (q.allow_na) opts.push({ v: "na", label: t("question.na"), key: "A" });
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
      {q.yes_means === "defect" && <p className="polarity">{t("question.yesDefect")}</p>}
      {q.allow_na && q.na_means && q.na_means !== "missing" && (
        <p className="na-note">{q.na_means === "satisfied" ? t("question.naSatisfied") : t("question.naNotSatisfied")}</p>
      )}
    </div>
  );
}
