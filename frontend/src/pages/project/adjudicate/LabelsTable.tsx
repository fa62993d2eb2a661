import { useEffect, useRef } from "react";
import type { AnswerValue, Answers, ConsensusState, FieldProblem, Question } from "../../../api";
import { answerKey, answerText, questionName } from "../review/answerText";
import type { Column } from "./columns";
import { useTranslation } from "react-i18next";

interface Props {
  questions: Question[];
  columns: Column[];
  /** The consensus state of each question, from the server. */
  states: Record<string, ConsensusState>;
  picks: Answers;
  errors: Record<string, FieldProblem>;
  active: number;
  onActive: (i: number) => void;
  onPick: (key: string, v: AnswerValue) => void;
  /** Copy column i into the final label. */
  onTake: (i: number) => void;
}


/** The consensus state of a question as a chip; nothing when every label agrees. */
function StateChip({ state }: { state: ConsensusState | undefined }) {
  const { t } = useTranslation();
  switch (state) {
    case "no_consensus":
      return <span className="dis-chip">{t("adjudicate.state.no_consensus")}</span>;
    case "majority":
      return <span className="dis-chip soft">{t("adjudicate.state.majority")}</span>;
    case "tolerance":
      return (
        <span className="dis-chip soft" title={t("adjudicate.state.toleranceTitle")}>
          {t("adjudicate.state.tolerance")}
        </span>
      );
    case "missing":
      return (
        <span className="dis-chip muted" title={t("adjudicate.state.missingTitle")}>
          {t("adjudicate.state.missing")}
        </span>
      );
    default:
      return null;
  }
}

const ROW_STATE: Partial<Record<ConsensusState, string>> = { no_consensus: "dis-open", majority: "dis-resolved", tolerance: "dis-resolved" };

/** A row's classes: the question in focus, its consensus state, a problem on its final answer. */
function rowClass(active: boolean, state: ConsensusState | undefined, invalid: boolean): string {
  return [active && "active", state && ROW_STATE[state], invalid && "invalid"].filter(Boolean).join(" ");
}

/** The final answer of a question: what was picked, or what is still needed (only required questions ask for a choice). */
function FinalPick({ q, pick }: { q: Question; pick: AnswerValue | undefined }) {
  const { t } = useTranslation();
  if (pick !== undefined) return <strong className="final-value">{answerText(q, pick)}</strong>;
  if (q.required) return <span className="missing">{t("adjudicate.choose")}</span>;
  return <span className="muted" title={t("adjudicate.optionalEmpty")}>—</span>;
}

function ColumnHead({ c, index, onTake }: { c: Column; index: number; onTake: (i: number) => void }) {
  const { t } = useTranslation();
  const verdicts: Record<string, string> = {
    approve: t("adjudicate.verdict.approve"),
    correct: t("adjudicate.verdict.correct"),
    reject: t("adjudicate.verdict.reject"),
    disputed: t("adjudicate.verdict.disputed"),
  };
  return (
    <th className={`label-col col-${c.kind}${c.counted ? "" : " not-counted"}`} data-column={c.letter}>
      <div className="col-title">
        {c.digit && <kbd className="kbd">{c.digit}</kbd>} {c.title}
        {c.verdict && (
          <span className={`review-chip ${c.verdict}`} title={c.comment}>
            {verdicts[c.verdict] ?? c.verdict}
          </span>
        )}
      </div>
      {c.note && <div className="col-note">{c.note}</div>}
      {!c.counted && <div className="col-note">{t("adjudicate.notCounted")}</div>}
      {c.comment && <p className="review-note col-comment">“{c.comment}”</p>}
      <button type="button" tabIndex={-1} className="take-col" onClick={() => onTake(index)} title={t("adjudicate.copyAll", { title: c.title })}>
        {t("adjudicate.all")} {c.letter && <kbd className="kbd">{c.letter}</kbd>}
      </button>
    </th>
  );
}

/**
 * Every column per question — each label as submitted, each reviewer's
 * correction, the consensus — with the question's consensus state and the
 * final pick. A reviewer's note on a question shows under that label's answer.
 */
export function LabelsTable({ questions, columns, states, picks, errors, active, onActive, onPick, onTake }: Props) {
  const { t } = useTranslation();
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  useEffect(() => {
    // note: a block body, because Chromium's scrollIntoView now returns a promise, which React would take for a cleanup.
    rows.current[active]?.scrollIntoView?.({ block: "nearest" });
  }, [active]);
  return (
    <div className="labels-scroll">
      <table className="table labels-table" aria-label={t("adjudicate.tableAria")}>
        <thead>
          <tr>
            <th className="num">#</th>
            <th>{t("review.question")}</th>
            {columns.map((c, i) => (
              <ColumnHead key={c.id} c={c} index={i} onTake={onTake} />
            ))}
            <th className="final-col">{t("adjudicate.final")}</th>
          </tr>
        </thead>
        <tbody>
          {questions.map((q, i) => {
            const state = states[q.key];
            const pick = picks[q.key];
            const cls = rowClass(i === active, state, !!errors[q.key]);
            return (
              <tr key={q.key} ref={(el) => void (rows.current[i] = el)} className={cls || undefined} onClick={() => onActive(i)} data-question={q.key} data-state={state}>
                <td className="num">{q.index ?? i + 1}</td>
                <td className="q-name" title={q.label}>
                  {questionName(q)}
                  <StateChip state={state} />
                </td>
                {columns.map((c) => {
                  const v = c.answers[q.key];
                  const chosen = pick !== undefined && v !== undefined && answerKey(v) === answerKey(pick);
                  const note = c.notes?.[q.key]?.trim();
                  return (
                    <td key={c.id} className={`label-cell col-${c.kind}${c.counted ? "" : " not-counted"}`}>
                      <button type="button" tabIndex={-1} className={chosen ? "val on" : "val"} disabled={v === undefined} onClick={() => v !== undefined && onPick(q.key, v)}>
                        {answerText(q, v)}
                      </button>
                      {note && (
                        <p className="review-note" data-testid="review-note">
                          <span className="review-note-by">{c.notesBy}:</span> {note}
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
