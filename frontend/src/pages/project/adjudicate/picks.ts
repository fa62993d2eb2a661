// Pure helpers of the adjudication page: which answers to start the final
// label from and where the columns differ.
import type { Answers, ClaimContext, Question } from "../../../api";
import { answerKey } from "../review/answerText";
import type { Column } from "./columns";

/** States in which the consensus rule gives an answer. */
export const SETTLED = new Set(["unanimous", "tolerance", "majority"]);

/** Whether the columns give more than one distinct answer to a question. */
export function differs(q: Question, columns: Column[]): boolean {
  const seen = new Set<string>();
  for (const c of columns) {
    const v = c.answers[q.key];
    if (v !== undefined) seen.add(answerKey(v));
  }
  return seen.size > 1;
}

/**
 * Starting answers: what the consensus rule settled, and free text every
 * counted label wrote alike; where they truly disagree nothing, so the
 * adjudicator must choose.
 */
export function initialPicks(qs: Question[], ctx: ClaimContext): Answers {
  const out: Answers = {};
  const counted = (ctx.labels ?? []).filter((l) => l.counted ?? true);
  for (const s of ctx.consensus?.questions ?? []) {
    if (SETTLED.has(s.state) && s.answer !== undefined && s.answer !== null) out[s.question] = s.answer as Answers[string];
  }
  for (const q of qs) {
    if (q.kind !== "text" || !counted.length) continue;
    const vals = counted.map((l) => l.answers[q.key]);
    if (vals[0] !== undefined && vals.every((v) => v !== undefined && answerKey(v) === answerKey(vals[0]))) out[q.key] = vals[0];
  }
  return out;
}
