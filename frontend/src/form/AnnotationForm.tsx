import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { InputsPane } from "./inputs/InputsPane";
import { QuestionsPane } from "./QuestionsPane";
import { ShortcutLegend } from "./ShortcutLegend";
import { FormFooter } from "./FormFooter";
import { FormToolbar, useAutoAdvance } from "./FormToolbar";
import { cleanAnswers, validateAnswers } from "./answers";
import { keyAction } from "./keys";
import { traitsOf } from "./kinds";
import { useFormKeyboard } from "./useFormKeyboard";
import { focusNextMedia, toggleFirstMedia } from "./mediaFocus";
import { candidatesInput } from "./schema";
import { inputList } from "./questions/ListEditQuestion";
import type { AnswerErrors, AnswerValue, Answers, Item, Question, Schema } from "../api";
import "./form.css";
import "./questions.css";
import "./chrome.css";
import "../media/media.css";
import { useTranslation } from "react-i18next";

export interface AnnotationFormProps {
  schema: Schema;
  item: Item;
  /** Called with the cleaned answers once the client-side check passes. */
  onSubmit: (answers: Record<string, AnswerValue>) => void;
  /** Per-question problems from the server (422 details); shown on the questions. */
  serverErrors?: AnswerErrors;
  submitting?: boolean;
  submitLabel?: string;
  /** Shown next to the submit button, e.g. the server's verdict. */
  status?: ReactNode;
  initialAnswers?: Answers;
  onAnswersChange?: (answers: Answers) => void;
  /** Whether shortcuts listen on the document (off when another form is on top). */
  keyboard?: boolean;
}

/** The server's problems shown on the questions: new ones replace them, and a question's goes once it is changed. */
function useServerErrors(serverErrors: AnswerErrors | undefined): [AnswerErrors, (key: string) => void] {
  const [server, setServer] = useState<AnswerErrors>(serverErrors ?? {});
  // note: adjusted while rendering rather than in an effect, so mounting a form does not render its question cards twice.
  const [seen, setSeen] = useState(serverErrors);
  if (serverErrors !== seen) {
    setSeen(serverErrors);
    setServer(serverErrors ?? {});
  }
  const drop = (key: string) =>
    setServer((s) => {
      if (!(key in s)) return s;
      const { [key]: _gone, ...rest } = s;
      return rest;
    });
  return [server, drop];
}

/**
 * Whether auto-advance passes over q: optional free text (a comment, a list of
 * criteria) is reached with j/k, Tab or a click, so one-key answers and Enter
 * keep going from one answer to the next.
 */
export function skippedByAdvance(q: Question): boolean {
  return !q.required && traitsOf(q.kind).freeText;
}

/** The question auto-advance moves to after question i, or -1 when none is left (the submit button is next). */
export function advanceFrom(qs: Question[], i: number): number {
  for (let j = i + 1; j < qs.length; j++) if (!skippedByAdvance(qs[j])) return j;
  return -1;
}

/** Renders any schema as a keyboard-driven form: inputs on one side, questions on the other. */
export function AnnotationForm(props: AnnotationFormProps) {
  const { schema, item, onSubmit, serverErrors, keyboard = true } = props;
  const { t } = useTranslation();
  const qs = schema.questions;
  const [answers, setAnswers] = useState<Answers>(props.initialAnswers ?? {});
  const [active, setActive] = useState(0);
  const [subs, setSubs] = useState<Record<string, number>>({});
  const [attempted, setAttempted] = useState(false);
  const [legend, setLegend] = useState(false);
  const [auto, setAuto] = useAutoAdvance();
  const [server, dropServerError] = useServerErrors(serverErrors);
  const cards = useRef<(HTMLElement | null)[]>([]);
  const submitBtn = useRef<HTMLButtonElement>(null);

  // The first question takes the keyboard as soon as it is in the document, before the first paint.
  useLayoutEffect(() => {
    cards.current[0]?.focus({ preventScroll: true });
  }, []);

  const clientErrors = useMemo(() => validateAnswers(schema, answers), [schema, answers]);
  const shown: AnswerErrors = { ...(attempted ? clientErrors : {}), ...server };

  function change(key: string, v: AnswerValue | undefined) {
    const next = { ...answers, [key]: v };
    setAnswers(next);
    props.onAnswersChange?.(next);
    dropServerError(key);
  }

  function focusCard(i: number) {
    const el = cards.current[i];
    if (!el) return;
    el.focus({ preventScroll: true });
    // note: not smooth: Chromium lets a smooth scroll run on after a submit has put the next item at the top, and fast typists outrun it anyway.
    el.scrollIntoView?.({ block: "nearest" });
  }

  function go(i: number) {
    const next = Math.max(0, Math.min(qs.length - 1, i));
    const q = qs[next];
    if (q && traitsOf(q.kind).itemized && subs[q.key] === undefined) {
      setSubs((s) => ({ ...s, [q.key]: 0 }));
    }
    setActive(next);
    focusCard(next);
  }

  function submit() {
    setAttempted(true);
    const errs = validateAnswers(schema, answers);
    const first = qs.findIndex((q) => errs[q.key]);
    if (first >= 0) {
      go(first);
      return;
    }
    onSubmit(cleanAnswers(answers));
  }

  function answerKey(key: string): boolean {
    const q = qs[active];
    if (!q) return false;
    if (key === "Enter" && !traitsOf(q.kind).typed) {
      submit();
      return true;
    }
    const slots = candidatesInput(schema, q)?.count || 2;
    const list = q.kind === "list_edit" ? inputList(q, item.inputs) : undefined;
    const r = keyAction({ q, current: answers[q.key], sub: subs[q.key] ?? 0, slots, list }, key);
    if (!r) {
      if (key === "p") return focusNextMedia();
      if (key === " ") return toggleFirstMedia();
      return false;
    }
    if (r.edit === true) {
      cards.current[active]?.querySelector<HTMLElement>("[data-edit]")?.focus();
      return true;
    }
    if (r.sub !== undefined) setSubs((s) => ({ ...s, [q.key]: r.sub! }));
    if (r.set) change(q.key, r.value);
    if (typeof r.edit === "string") {
      // A field the change just rendered (a list entry's new wording).
      const card = cards.current[active];
      const sel = r.edit;
      requestAnimationFrame(() => card?.querySelector<HTMLElement>(sel)?.focus());
      return true;
    }
    if (r.advance && auto) {
      const next = advanceFrom(qs, active);
      if (next >= 0) go(next);
      else submitBtn.current?.focus();
    }
    return true;
  }

  useFormKeyboard(
    {
      submit,
      move: (d) => go(active + d),
      toggleLegend: () => setLegend((l) => !l),
      closeLegend: () => {
        if (!legend) return false;
        setLegend(false);
        return true;
      },
      leaveField: () => focusCard(active),
      answer: answerKey,
    },
    keyboard,
  );

  const answered = qs.filter((q) => !clientErrors[q.key] && answers[q.key] !== undefined).length;
  const missing = qs.filter((q) => clientErrors[q.key]?.code === "required");
  return (
    <div className="aform">
      <div className="aform-grid">
        <InputsPane schema={schema} item={item} focused={qs[active]} answers={answers} />
        <div className="questions-col">
          <FormToolbar answered={answered} total={qs.length} auto={auto} onAuto={setAuto} legend={legend} onLegend={setLegend} />
          {legend && <ShortcutLegend kinds={qs.map((q) => q.kind)} onClose={() => setLegend(false)} />}
          <QuestionsPane
            schema={schema}
            answers={answers}
            active={active}
            errors={shown}
            subs={subs}
            cardRef={(i, el) => (cards.current[i] = el)}
            onFocusQuestion={(i) => setActive(i)}
            onChange={change}
            onSub={(key, i) => setSubs((s) => ({ ...s, [key]: i }))}
            inputs={item.inputs}
          />
          <FormFooter
            ref={submitBtn}
            missing={missing.map((q) => q.short_label || q.label)}
            onJump={() => go(qs.findIndex((q) => clientErrors[q.key]?.code === "required"))}
            errorCount={Object.keys(shown).length}
            onSubmit={submit}
            submitting={props.submitting}
            label={props.submitLabel ?? t("form.submit")}
            status={props.status}
          />
        </div>
      </div>
    </div>
  );
}
