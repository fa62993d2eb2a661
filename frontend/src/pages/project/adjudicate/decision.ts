// The adjudicator's decision on one item as a reducer: the final answers
// picked so far, the question in focus, and the rationale, confidence and
// error category that go with it.
import type { AnswerValue, Answers, Claim, ConsensusState, FieldProblem, Question } from "../../../api";
import { columnsOf, statesOf, takeable, type Column } from "./columns";
import { differs, initialPicks } from "./picks";

export interface Decision {
  readonly questions: Question[];
  /** What the final label can start from: originals, corrections, consensus. */
  readonly columns: Column[];
  /** The consensus state of each question. */
  readonly states: Record<string, ConsensusState>;
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
  /** The focused question's answer from column `column` (0-based). */
  | { type: "pick"; column: number }
  /** Every answer of column `column`; questions it leaves blank keep theirs. */
  | { type: "take"; column: number }
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
  const picks = initialPicks(questions, claim.context);
  const open = questions.findIndex((q) => picks[q.key] === undefined);
  const base = { picks, active: Math.max(0, open), editing: false, rationale: "", confidence: null, category: "", errors: {} };
  return { questions, columns: columnsOf(claim.context), states: statesOf(claim.context), ...base };
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
      const v = q && d.columns[a.column] && takeable(d.columns[a.column])[q.key];
      if (!q || v === undefined) return d;
      // Move on to the next question still without an answer.
      const next = qs.findIndex((x, j) => j > d.active && d.picks[x.key] === undefined);
      return { ...d, picks: { ...d.picks, [q.key]: v }, errors: without(d.errors, q.key), active: next >= 0 ? next : d.active };
    }
    case "take": {
      const c = d.columns[a.column];
      if (!c) return d;
      const taken = takeable(c);
      const errors = Object.fromEntries(Object.entries(d.errors).filter(([k]) => !(k in taken)));
      return { ...d, picks: { ...d.picks, ...taken }, errors };
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
        if (d.states[qs[j].key] === "no_consensus" || differs(qs[j], d.columns)) return { ...d, active: j };
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
