// The adjudicator's decision on one item as a reducer: the final answers
// picked so far, the question in focus, and the rationale, confidence and
// error category that go with it.
import type { AnswerValue, Answers, Claim, Disagreement, FieldProblem, LabelView, Question } from "../../../api";
import { choicesFor, disagreementOf, initialPicks } from "./picks";

export interface Decision {
  readonly questions: Question[];
  readonly labels: LabelView[];
  readonly disagreements: Disagreement[] | undefined;
  picks: Answers;
  active: number;
  /** The final answers are being edited in the full form. */
  editing: boolean;
  rationale: string;
  confidence: number | null;
  category: string;
  errors: Record<string, FieldProblem>;
}

export type DecisionAction =
  /** The focused question's answer from label `label` (0-based). */
  | { type: "pick"; label: number }
  | { type: "set"; key: string; value: AnswerValue }
  | { type: "move"; by: number }
  | { type: "focus"; index: number }
  /** Focus the next question where the labels differ. */
  | { type: "nextDifference" }
  | { type: "edit"; on: boolean }
  /** The answers of the full form replace the picks. */
  | { type: "answers"; answers: Answers }
  | { type: "rationale"; text: string }
  /** A confidence, or the same one again to clear it. */
  | { type: "confidence"; value: number }
  | { type: "category"; value: string }
  | { type: "errors"; errors: Record<string, FieldProblem> };

/** A fresh decision for a claim: agreed answers picked, focus on the first question still open. */
export function startDecision(claim: Claim): Decision {
  const questions = claim.item.schema.questions;
  const labels = claim.context.labels ?? [];
  const disagreements = claim.context.disagreements;
  const picks = initialPicks(questions, labels, disagreements);
  const open = questions.findIndex((q) => picks[q.key] === undefined);
  return { questions, labels, disagreements, picks, active: Math.max(0, open), editing: false, rationale: "", confidence: null, category: "", errors: {} };
}

const without = <T>(m: Record<string, T>, key: string) => {
  if (!(key in m)) return m;
  const { [key]: _gone, ...rest } = m;
  return rest;
};

export function decisionReducer(d: Decision, a: DecisionAction): Decision {
  const qs = d.questions;
  switch (a.type) {
    case "pick": {
      const q = qs[d.active];
      const v = q && d.labels[a.label]?.answers[q.key];
      if (!q || v === undefined) return d;
      // Move on to the next question still without an answer.
      const next = qs.findIndex((x, j) => j > d.active && d.picks[x.key] === undefined);
      return { ...d, picks: { ...d.picks, [q.key]: v }, errors: without(d.errors, q.key), active: next >= 0 ? next : d.active };
    }
    case "set":
      return { ...d, picks: { ...d.picks, [a.key]: a.value }, errors: without(d.errors, a.key) };
    case "move":
      return { ...d, active: Math.max(0, Math.min(qs.length - 1, d.active + a.by)) };
    case "focus":
      return { ...d, active: a.index };
    case "nextDifference": {
      for (let step = 1; step <= qs.length; step++) {
        const j = (d.active + step) % qs.length;
        if (disagreementOf(qs[j].key, d.disagreements) || choicesFor(qs[j], d.labels).length > 1) return { ...d, active: j };
      }
      return d;
    }
    case "edit":
      return { ...d, editing: a.on };
    case "answers":
      return { ...d, picks: a.answers, errors: {}, editing: false };
    case "rationale":
      return { ...d, rationale: a.text, errors: without(d.errors, "rationale") };
    case "confidence":
      return { ...d, confidence: d.confidence === a.value ? null : a.value };
    case "category":
      return { ...d, category: a.value };
    case "errors":
      return { ...d, errors: a.errors };
  }
}

/** Questions still without a required final answer. */
export const missingAnswers = (d: Decision) => d.questions.filter((q) => q.required && d.picks[q.key] === undefined).length;
