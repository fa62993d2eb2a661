import { QuestionCard } from "./QuestionCard";
import { QuestionBody } from "./questions/QuestionBody";
import type { AnswerErrors, AnswerValue, Answers, Question, Schema } from "../api";
import { useTranslation } from "react-i18next";

interface Props {
  schema: Schema;
  answers: Answers;
  active: number;
  errors: AnswerErrors;
  subs: Record<string, number>;
  cardRef: (i: number, el: HTMLElement | null) => void;
  onFocusQuestion: (i: number) => void;
  onChange: (key: string, v: AnswerValue | undefined) => void;
  onSub: (key: string, i: number) => void;
  /** The item's input values, for questions that read one (list_edit). */
  inputs?: Record<string, unknown>;
}

interface Run {
  group?: string;
  items: { q: Question; i: number }[];
}

/** Consecutive questions of the same group, in schema order. */
export function groupRuns(qs: Question[]): Run[] {
  const runs: Run[] = [];
  qs.forEach((q, i) => {
    const last = runs[runs.length - 1];
    if (last && last.group === q.group) last.items.push({ q, i });
    else runs.push({ group: q.group, items: [{ q, i }] });
  });
  return runs;
}

/** The questions in schema order, under their group headings. */
export function QuestionsPane(p: Props) {
  const { t } = useTranslation();
  const groups = new Map((p.schema.groups ?? []).map((g) => [g.key, g]));
  return (
    <div className="questions-pane">
      {p.schema.instructions && <p className="instructions">{p.schema.instructions}</p>}
      {groupRuns(p.schema.questions).map((run, r) => {
        const g = run.group ? groups.get(run.group) : undefined;
        return (
          <div key={r} className="q-group" role="group" aria-label={g?.label ?? run.group ?? t("form.questions")}>
            {run.group && (
              <header className="q-group-head">
                <h2>{g?.label ?? run.group}</h2>
                {g?.help && <p>{g.help}</p>}
              </header>
            )}
            {run.items.map(({ q, i }) => (
              <QuestionCard
                key={q.key}
                ref={(el) => p.cardRef(i, el)}
                q={q}
                n={i + 1}
                value={p.answers[q.key]}
                active={i === p.active}
                problem={p.errors[q.key]}
                onFocus={() => p.onFocusQuestion(i)}
              >
                <QuestionBody
                  q={q}
                  schema={p.schema}
                  value={p.answers[q.key]}
                  onChange={(v) => p.onChange(q.key, v)}
                  sub={i === p.active ? p.subs[q.key] ?? 0 : -1}
                  setSub={(s) => p.onSub(q.key, s)}
                  inputs={p.inputs}
                />
              </QuestionCard>
            ))}
          </div>
        );
      })}
    </div>
  );
}
