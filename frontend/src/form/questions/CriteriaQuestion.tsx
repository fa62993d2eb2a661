import { useState, type KeyboardEvent } from "react";
import type { QuestionProps } from "./types";
import { useTranslation } from "react-i18next";

/** A list of criteria written by the annotator: Enter adds, ↑ in an empty field edits the last one. */
export function CriteriaQuestion({ q, value, onChange }: QuestionProps) {
  const { t } = useTranslation();
  const list = Array.isArray(value) ? value : [];
  const [draft, setDraft] = useState("");
  const set = (next: string[]) => onChange(next.length ? next : undefined);
  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Enter" && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      e.stopPropagation();
      if (draft.trim()) {
        set([...list, draft.trim()]);
        setDraft("");
      }
    } else if (e.key === "ArrowUp" && !draft && list.length) {
      e.preventDefault();
      setDraft(list[list.length - 1]);
      set(list.slice(0, -1));
    }
  }
  const full = q.max !== undefined && list.length >= q.max;
  return (
    <div className="answer-row">
      {list.length > 0 && (
        <ol className="criteria">
          {list.map((c, i) => (
            <li key={i}>
              <span>{c}</span>
              <button type="button" tabIndex={-1} className="link-btn" aria-label={t("question.removeCriterion", { n: i + 1 })} onClick={() => set(list.filter((_, j) => j !== i))}>
                ×
              </button>
            </li>
          ))}
        </ol>
      )}
      {!full && (
        <input
          data-edit
          className="text-answer"
          value={draft}
          placeholder={q.placeholder || t("question.criterionPlaceholder")}
          aria-label={t("question.newCriterion", { label: q.label })}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
      <p className="counter">
        {t("question.criteriaCount", { count: list.length })}
        {q.min !== undefined || q.max !== undefined ? t("question.expected", { min: q.min ?? 0, max: q.max ?? "∞" }) : ""}
        {q.max_length ? t("question.upTo", { max: q.max_length }) : ""}
      </p>
    </div>
  );
}
