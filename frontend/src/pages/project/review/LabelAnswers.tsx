import { useEffect, useRef } from "react";
import type { Answers, Question } from "../../../api";
import { answerText, questionName } from "./answerText";
import { useTranslation } from "react-i18next";

interface Props {
  questions: Question[];
  answers: Answers;
  active: number;
  onActive: (i: number) => void;
  comments: Record<string, string>;
  /** The question whose comment box is open. */
  editing: string | null;
  onEdit: (key: string | null) => void;
  onComment: (key: string, text: string) => void;
}

/** The label under review as a compact table, one row per question, with a comment box per question. */
export function LabelAnswers({ questions, answers, active, onActive, comments, editing, onEdit, onComment }: Props) {
  const { t } = useTranslation();
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  useEffect(() => {
    // note: a block body, because Chromium's scrollIntoView now returns a promise, which React would take for a cleanup.
    rows.current[active]?.scrollIntoView?.({ block: "nearest" });
  }, [active]);
  return (
    <table className="table answers-table" aria-label={t("review.tableAria")}>
      <thead>
        <tr>
          <th className="num">#</th>
          <th>{t("review.question")}</th>
          <th>{t("review.answer")}</th>
          <th className="cell-actions">{t("review.comment")}</th>
        </tr>
      </thead>
      <tbody>
        {questions.map((q, i) => {
          const open = editing === q.key || !!comments[q.key];
          return (
            <tr
              key={q.key}
              ref={(el) => {
                rows.current[i] = el;
              }}
              className={i === active ? "active" : undefined}
              onClick={() => onActive(i)}
              data-question={q.key}
            >
              <td className="num">{q.index ?? i + 1}</td>
              <td className="q-name" title={q.label}>
                {questionName(q)}
              </td>
              <td className="answer">{answerText(q, answers[q.key])}</td>
              <td className="cell-actions comment-cell">
                {open ? (
                  <input
                    aria-label={t("review.commentOn", { name: questionName(q) })}
                    className="q-comment"
                    autoFocus={editing === q.key}
                    value={comments[q.key] ?? ""}
                    placeholder={t("review.whatIsWrong")}
                    onChange={(e) => onComment(q.key, e.target.value)}
                    onBlur={() => onEdit(null)}
                    onKeyDown={(e) => {
                      if (e.key === "Escape" || e.key === "Enter") {
                        e.preventDefault();
                        (e.target as HTMLInputElement).blur();
                      }
                    }}
                  />
                ) : (
                  <button type="button" className="btn btn-ghost btn-sm" tabIndex={-1} onClick={() => onEdit(q.key)}>
                    {t("review.comment")}
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * The per-question comments to send with a review: trimmed, empty ones left
 * out, only for questions of the schema (the server refuses other keys).
 */
export function reviewComments(comments: Record<string, string>, questions: Question[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const q of questions) {
    const text = comments[q.key]?.trim();
    if (text) out[q.key] = text;
  }
  return out;
}
