// Client-side answer checks mirroring tasks.Schema.ValidateAnswers. The
// server stays the authority; this only shows problems before submit.
import { candidatesInput } from "./schema";
import { forKind } from "./kinds";
import { checkListEdit } from "./questions/ListEditQuestion";
import type { AnswerErrors, AnswerValue, Answers, FieldProblem, Kind, Question, Schema } from "../api";

const problem = (code: string, message: string): FieldProblem => ({ code, message });

/** Characters after trimming, counted as Unicode code points like the server. */
const length = (s: string) => [...s.trim()].length;

/** Whether v counts as an answer at all (blank text and empty lists do not). */
export function isAnswered(v: AnswerValue | undefined): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === "string") return v.trim() !== "";
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

/**
 * The answers to send: unanswered questions are left out, so an optional
 * blank text is not checked against its minimum length.
 */
export function cleanAnswers(answers: Answers): Record<string, AnswerValue> {
  const out: Record<string, AnswerValue> = {};
  for (const [k, v] of Object.entries(answers)) {
    if (v !== undefined && isAnswered(v)) out[k] = v;
  }
  return out;
}

/** Checks a whole submission; returns problems keyed by question key. */
export function validateAnswers(schema: Schema, answers: Answers): AnswerErrors {
  const errs: AnswerErrors = {};
  for (const q of schema.questions) {
    const v = answers[q.key];
    if (v === undefined || !isAnswered(v)) {
      if (q.required) errs[q.key] = problem("required", "An answer is required.");
      continue;
    }
    const p = checkAnswer(schema, q, v);
    if (p) errs[q.key] = p;
  }
  return errs;
}

/** Checks one present answer to a question of the kind. */
type Check = (q: Question, v: AnswerValue, schema: Schema) => FieldProblem | null;

/** The checks of each kind. */
const CHECKS: Record<Kind, Check> = {
  binary: checkBinary,
  likert: checkLikert,
  choice: (q, v) => (typeof v === "string" && hasOption(q, v) ? null : problem("unknown_option", "Choose one of the options.")),
  multi_choice: checkMulti,
  pairwise: checkPairwise,
  ranking: (q, v, schema) => checkRanking(v, candidatesInput(schema, q)?.count ?? 0),
  checklist: checkChecklist,
  text: (q, v) => (typeof v === "string" ? checkLength(q, v, "Text") : problem("invalid_type", "Expected text.")),
  criteria: checkCriteria,
  list_edit: (q, v) => checkListEdit(q, v),
};

/** Checks one present answer. */
export function checkAnswer(schema: Schema, q: Question, v: AnswerValue): FieldProblem | null {
  const check = forKind(CHECKS, q.kind);
  return check ? check(q, v, schema) : problem("invalid_kind", "Unknown question kind.");
}

function checkBinary(q: Question, v: AnswerValue): FieldProblem | null {
  if (v === "yes" || v === "no") return null;
  if (v === "na") return q.allow_na ? null : problem("na_not_allowed", "N/A is not allowed for this question.");
  return problem("invalid_value", 'Expected "yes", "no" or "na".');
}

function checkPairwise(q: Question, v: AnswerValue): FieldProblem | null {
  if (v === "A" || v === "B") return null;
  if (v === "tie") return q.allow_tie ? null : problem("tie_not_allowed", "A tie is not allowed for this question.");
  return problem("invalid_value", 'Expected "A", "B" or "tie".');
}

function checkLikert(q: Question, v: AnswerValue): FieldProblem | null {
  if (v === "na") return q.allow_na ? null : problem("na_not_allowed", "N/A is not allowed for this question.");
  if (typeof v !== "number" || !Number.isInteger(v)) return problem("invalid_type", 'Expected an integer or "na".');
  if (q.min === undefined || q.max === undefined || v < q.min || v > q.max) {
    return problem("out_of_range", `Value ${v} is outside ${q.min}..${q.max}.`);
  }
  return null;
}

const hasOption = (q: Question, key: string) => (q.options ?? []).some((o) => o.key === key);

function checkCount(q: Question, n: number, what: string): FieldProblem | null {
  const lo = q.min ?? 0;
  if (n < lo) return problem("too_few", `Give at least ${lo} ${what}.`);
  if (q.max !== undefined && n > q.max) return problem("too_many", `Give at most ${q.max} ${what}.`);
  return null;
}

function checkMulti(q: Question, v: AnswerValue): FieldProblem | null {
  if (!Array.isArray(v)) return problem("invalid_type", "Expected a list of options.");
  if (v.some((k) => !hasOption(q, k))) return problem("unknown_option", "Unknown option chosen.");
  if (new Set(v).size !== v.length) return problem("duplicate_key", "An option is chosen twice.");
  return checkCount(q, v.length, "options");
}

function checkRanking(v: AnswerValue, size: number): FieldProblem | null {
  if (!Array.isArray(v)) return problem("invalid_type", "Expected a list of slots.");
  const n = size || v.length;
  if (v.length < n || v.length < 2) return problem("too_few", `Rank all ${Math.max(n, 2)} candidates.`);
  if (v.length > n) return problem("too_many", `Rank exactly ${n} candidates.`);
  const seen = new Set<string>();
  for (const s of v) {
    const i = s.length === 1 ? s.charCodeAt(0) - 65 : -1;
    if (i < 0 || i >= n) return problem("unknown_option", `"${s}" is not a candidate slot.`);
    if (seen.has(s)) return problem("duplicate_key", `Slot ${s} is ranked twice.`);
    seen.add(s);
  }
  return null;
}

function checkChecklist(q: Question, v: AnswerValue): FieldProblem | null {
  if (!v || typeof v !== "object" || Array.isArray(v)) return problem("invalid_type", "Expected item scores.");
  const scores = v as Record<string, number>;
  for (const it of q.items ?? []) {
    const s = scores[it.key];
    if (s === undefined || s === null) return problem("required", `${it.label}: a score is required.`);
    if (!Number.isInteger(s) || s < 0 || s > it.max) {
      return problem("out_of_range", `${it.label}: score must be 0..${it.max}.`);
    }
  }
  return null;
}

function checkLength(q: Question, v: string, what: string): FieldProblem | null {
  const n = length(v);
  if (n < (q.min_length ?? 0)) return problem("too_short", `${what} must be at least ${q.min_length} characters (now ${n}).`);
  if (q.max_length && n > q.max_length) return problem("too_long", `${what} must be at most ${q.max_length} characters (now ${n}).`);
  return null;
}

function checkCriteria(q: Question, v: AnswerValue): FieldProblem | null {
  if (!Array.isArray(v)) return problem("invalid_type", "Expected a list of criteria.");
  const count = checkCount(q, v.length, "criteria");
  if (count) return count;
  const seen = new Set<string>();
  for (const [i, c] of v.entries()) {
    const norm = c.trim().toLowerCase();
    if (!norm) return problem("too_short", `Criterion ${i + 1} is empty.`);
    const p = checkLength(q, c, `Criterion ${i + 1}`);
    if (p) return p;
    if (seen.has(norm)) return problem("duplicate_key", `Criterion ${i + 1} repeats an earlier criterion.`);
    seen.add(norm);
  }
  return null;
}
