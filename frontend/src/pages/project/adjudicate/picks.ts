// Pure helpers of the adjudication page: who chose what per question and
// which answers to start the final label from.
import type { Disagreement, LabelView } from "../../../api/workflowTypes";
import type { AnswerValue, Answers, Question } from "../../../api";
import { answerKey } from "../review/answerText";

/** One distinct value given for a question, and which labels gave it. */
export interface Choice {
  value: AnswerValue;
  labels: number[];
}

/** Distinct values per question, most chosen first. */
export function choicesFor(q: Question, labels: LabelView[]): Choice[] {
  const by = new Map<string, Choice>();
  labels.forEach((l, i) => {
    const v = l.answers[q.key];
    if (v === undefined) return;
    const k = answerKey(v);
    const c = by.get(k) ?? { value: v, labels: [] };
    c.labels.push(i);
    by.set(k, c);
  });
  return [...by.values()].sort((a, b) => b.labels.length - a.labels.length);
}

/** Questions the server reports as disagreeing: "open" (unresolved) or "resolved" (by majority or tolerance). */
export function disagreementOf(key: string, ds: Disagreement[] | undefined): "open" | "resolved" | null {
  const d = ds?.find((x) => x.question === key);
  if (!d) return null;
  return d.resolved ? "resolved" : "open";
}

/**
 * How a question the server reports as settled was settled: "majority" when
 * more than half of the labels gave one answer, else "tolerance" (e.g. scores
 * within the consensus rule's distance).
 */
export function settledBy(q: Question, labels: LabelView[]): "majority" | "tolerance" {
  const top = choicesFor(q, labels)[0];
  return top && top.labels.length * 2 > labels.length ? "majority" : "tolerance";
}

/**
 * Starting answers: where every label agrees (or a majority settles it) that
 * value; where they truly disagree nothing, so the adjudicator must choose.
 */
export function initialPicks(qs: Question[], labels: LabelView[], ds: Disagreement[] | undefined): Answers {
  const out: Answers = {};
  for (const q of qs) {
    const cs = choicesFor(q, labels);
    if (cs.length === 0) continue;
    const state = disagreementOf(q.key, ds);
    if (cs.length === 1 || state === "resolved") out[q.key] = cs[0].value;
  }
  return out;
}

/** The display name of label i: the person's name when shown, else their pseudonym. */
export function labelName(l: LabelView, i: number): string {
  return l.name || l.by || `Label ${i + 1}`;
}
