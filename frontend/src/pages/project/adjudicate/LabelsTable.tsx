import { useEffect, useRef } from "react";
import type { Disagreement, LabelView } from "../../../api/workflowTypes";
import type { AnswerValue, Answers, FieldProblem, Question } from "../../../api";
import { answerKey, answerText, questionName } from "../review/answerText";
import { disagreementOf, labelName, settledBy } from "./picks";

interface Props {
  questions: Question[];
  labels: LabelView[];
  disagreements?: Disagreement[];
  picks: Answers;
  errors: Record<string, FieldProblem>;
  active: number;
  onActive: (i: number) => void;
  onPick: (key: string, v: AnswerValue) => void;
}

const VERDICT: Record<string, string> = { approve: "approved", correct: "corrected", reject: "rejected", disputed: "disputed" };

/** Who reviewed a label, for the notes they left on its questions. */
function reviewerName(l: LabelView): string {
  return l.review?.name || l.review?.by || "Reviewer";
}

function SettledChip({ by }: { by: "majority" | "tolerance" }) {
  return by === "majority" ? (
    <span className="dis-chip soft">majority</span>
  ) : (
    <span className="dis-chip soft" title="The labels differ by no more than the consensus rule allows">
      within tolerance
    </span>
  );
}

/** The final answer of a question: what was picked, or what is still needed (only required questions ask for a choice). */
function FinalPick({ q, pick }: { q: Question; pick: AnswerValue | undefined }) {
  if (pick !== undefined) return <strong className="final-value">{answerText(q, pick)}</strong>;
  if (q.required) return <span className="missing">choose</span>;
  return <span className="muted" title="Optional: may stay empty">—</span>;
}

/**
 * Every label per question, who chose what, disagreements marked, and the
 * final pick. A reviewer's note on a question shows under that label's answer
 * in the question's row.
 */
export function LabelsTable({ questions, labels, disagreements, picks, errors, active, onActive, onPick }: Props) {
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  useEffect(() => {
    // note: a block body, because Chromium's scrollIntoView now returns a promise, which React would take for a cleanup.
    rows.current[active]?.scrollIntoView?.({ block: "nearest" });
  }, [active]);
  return (
    <div className="labels-scroll">
      <table className="table labels-table" aria-label="Labels per question">
        <thead>
          <tr>
            <th className="num">#</th>
            <th>Question</th>
            {labels.map((l, i) => (
              <th key={l.assignment_id} className="label-col">
                <kbd className="kbd">{i + 1}</kbd> {labelName(l, i)}
                {l.review && (
                  <span className={`review-chip ${l.review.verdict}`} title={l.review.comment || undefined}>
                    {VERDICT[l.review.verdict] ?? l.review.verdict}
                  </span>
                )}
              </th>
            ))}
            <th className="final-col">Final</th>
          </tr>
        </thead>
        <tbody>
          {questions.map((q, i) => {
            const state = disagreementOf(q.key, disagreements);
            const pick = picks[q.key];
            const cls = [i === active && "active", state && `dis-${state}`, errors[q.key] && "invalid"].filter(Boolean).join(" ");
            return (
              <tr key={q.key} ref={(el) => void (rows.current[i] = el)} className={cls || undefined} onClick={() => onActive(i)} data-question={q.key}>
                <td className="num">{q.index ?? i + 1}</td>
                <td className="q-name" title={q.label}>
                  {questionName(q)}
                  {state === "open" && <span className="dis-chip">differs</span>}
                  {state === "resolved" && <SettledChip by={settledBy(q, labels)} />}
                </td>
                {labels.map((l) => {
                  const v = l.answers[q.key];
                  const chosen = pick !== undefined && v !== undefined && answerKey(v) === answerKey(pick);
                  const note = l.review?.comments?.[q.key]?.trim();
                  return (
                    <td key={l.assignment_id} className="label-cell">
                      <button type="button" tabIndex={-1} className={chosen ? "val on" : "val"} disabled={v === undefined} onClick={() => v !== undefined && onPick(q.key, v)}>
                        {answerText(q, v)}
                      </button>
                      {note && (
                        <p className="review-note" data-testid="review-note">
                          <span className="review-note-by">{reviewerName(l)}:</span> {note}
                        </p>
                      )}
                    </td>
                  );
                })}
                <td className="final-cell">
                  <FinalPick q={q} pick={pick} />
                  {errors[q.key] && <div className="field-error">{errors[q.key].message}</div>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
