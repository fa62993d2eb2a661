import { forwardRef, type ReactNode } from "react";
import { Markdown } from "./Markdown";
import { isAnswered } from "./answers";
import type { AnswerValue, FieldProblem, Question } from "../api";
import { useTranslation } from "react-i18next";

interface Props {
  q: Question;
  n: number;
  value: AnswerValue | undefined;
  active: boolean;
  problem?: FieldProblem;
  onFocus: () => void;
  children: ReactNode;
}

/** One question: number, label, guideline text, the answer widget and any problem. */
export const QuestionCard = forwardRef<HTMLElement, Props>(function QuestionCard({ q, n, value, active, problem, onFocus, children }, ref) {
  const { t } = useTranslation();
  const done = isAnswered(value);
  const cls = ["q-card", active && "active", done && "done", problem && "invalid", `kind-${q.kind}`].filter(Boolean).join(" ");
  const hid = `qh-${q.key}`;
  return (
    <section
      ref={ref}
      className={cls}
      tabIndex={0}
      data-question={q.key}
      data-kind={q.kind}
      data-active={active || undefined}
      aria-labelledby={hid}
      aria-describedby={problem ? `qe-${q.key}` : undefined}
      aria-current={active || undefined}
      onFocus={onFocus}
      // note: focusing an inactive card re-lays out the form (its help unclamps, the card left
      // behind clamps again), so a button pressed there would move before the mouse is released
      // and the click be lost: such a card is activated by the click instead, after it landed
      onMouseDown={(e) => {
        if (!active && (e.target as HTMLElement).closest("button")) e.preventDefault();
      }}
      onClick={(e) => {
        if (!active) e.currentTarget.focus({ preventScroll: true });
      }}
    >
      <header className="q-head">
        <span className="q-num" aria-hidden="true">
          {q.index ?? n}
        </span>
        <h3 id={hid} className="q-label">
          {q.label}
        </h3>
        {q.required ? (
          <span className={done ? "req ok" : "req"}>{done ? t("form.answeredBadge") : t("form.required")}</span>
        ) : (
          <span className="req optional">{t("form.optional")}</span>
        )}
      </header>
      {q.help && <Markdown source={q.help} className="q-help" />}
      <div className="q-body">{children}</div>
      {problem && (
        <p id={`qe-${q.key}`} className="q-error" role="alert">
          {problem.message}
        </p>
      )}
    </section>
  );
});
