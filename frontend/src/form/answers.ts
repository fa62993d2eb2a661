// Client-side answer checks mirroring tasks.Schema.ValidateAnswers. The
// server stays the authority; this only shows problems before submit.
import { candidatesInput } from "./schema";
import { forKind } from "./kinds";
import { checkListEdit } from "./questions/ListEditQuestion";
import i18n from "../i18n";
import type { AnswerErrors, AnswerValue, Answers, FieldProblem, Kind, Question, Schema } from "../api";

const problem = (code: string, message: string): FieldProblem => ({ code, message });
const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, values ?? {});

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
      if (q.required) errs[q.key] = problem("required", t("form.check.required"));
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
  choice: (q, v) => (typeof v === "string" && hasOption(q, v) ? null : problem("unknown_option", t("form.check.chooseOption"))),
  multi_choice: checkMulti,
  pairwise: checkPairwise,
  ranking: (q, v, schema) => checkRanking(v, candidatesInput(schema, q)?.count ?? 0),
  checklist: checkChecklist,
  text: (q, v) => (typeof v === "string" ? checkLength(q, v, t("form.check.text")) : problem("invalid_type", t("form.check.expectedText"))),
  criteria: checkCriteria,
  list_edit: (q, v) => checkListEdit(q, v),
};

/** Checks one present answer. */
export function checkAnswer(schema: Schema, q: Question, v: AnswerValue): FieldProblem | null {
  const check = forKind(CHECKS, q.kind);
  return check ? check(q, v, schema) : problem("invalid_kind", t("form.check.unknownKind"));
}

function checkBinary(q: Question, v: AnswerValue): FieldProblem | null {
  if (v === "yes" || v === "no") return null;
  if (v === "na") return q.allow_na ? null : problem("na_not_allowed", t("form.check.naNotAllowed"));
  return problem("invalid_value", t("form.check.expectedBinary"));
}

function checkPairwise(q: Question, v: AnswerValue): FieldProblem | null {
  if (v === "A" || v === "B") return null;
  if (v === "tie") return q.allow_tie ? null : problem("tie_not_allowed", t("form.check.tieNotAllowed"));
  return problem("invalid_value", t("form.check.expectedPairwise"));
}

function checkLikert(q: Question, v: AnswerValue): FieldProblem | null {
  if (v === "na") return q.allow_na ? null : problem("na_not_allowed", t("form.check.naNotAllowed"));
  if (typeof v !== "number" || !Number.isInteger(v)) return problem("invalid_type", t("form.check.expectedInteger"));
  if (q.min === undefined || q.max === undefined || v < q.min || v > q.max) {
    return problem("out_of_range", t("form.check.outOfRange", { value: v, min: q.min, max: q.max }));
  }
  return null;
}

const hasOption = (q: Question, key: string) => (q.options ?? []).some((o) => o.key === key);

function checkCount(q: Question, n: number, what: "Options" | "Criteria"): FieldProblem | null {
  const lo = q.min ?? 0;
  if (n < lo) return problem("too_few", t(`form.check.tooFew${what}`, { count: lo }));
  if (q.max !== undefined && n > q.max) return problem("too_many", t(`form.check.tooMany${what}`, { count: q.max }));
  return null;
}

function checkMulti(q: Question, v: AnswerValue): FieldProblem | null {
  if (!Array.isArray(v)) return problem("invalid_type", t("form.check.expectedOptions"));
  if (v.some((k) => !hasOption(q, k))) return problem("unknown_option", t("form.check.unknownOption"));
  if (new Set(v).size !== v.length) return problem("duplicate_key", t("form.check.optionTwice"));
  return checkCount(q, v.length, "Options");
}

function checkRanking(v: AnswerValue, size: number): FieldProblem | null {
  if (!Array.isArray(v)) return problem("invalid_type", t("form.check.expectedSlots"));
  const n = size || v.length;
  if (v.length < n || v.length < 2) return problem("too_few", t("form.check.rankAll", { count: Math.max(n, 2) }));
  if (v.length > n) return problem("too_many", t("form.check.rankExactly", { count: n }));
  const seen = new Set<string>();
  for (const s of v) {
    const i = s.length === 1 ? s.charCodeAt(0) - 65 : -1;
    if (i < 0 || i >= n) return problem("unknown_option", t("form.check.notSlot", { slot: s }));
    if (seen.has(s)) return problem("duplicate_key", t("form.check.slotTwice", { slot: s }));
    seen.add(s);
  }
  return null;
}

function checkChecklist(q: Question, v: AnswerValue): FieldProblem | null {
  if (!v || typeof v !== "object" || Array.isArray(v)) return problem("invalid_type", t("form.check.expectedScores"));
  const scores = v as Record<string, number>;
  for (const it of q.items ?? []) {
    const s = scores[it.key];
    if (s === undefined || s === null) return problem("required", t("form.check.scoreRequired", { label: it.label }));
    if (!Number.isInteger(s) || s < 0 || s > it.max) {
      return problem("out_of_range", t("form.check.scoreRange", { label: it.label, max: it.max }));
    }
  }
  return null;
}

function checkLength(q: Question, v: string, what: string): FieldProblem | null {
  const n = length(v);
  if (n < (q.min_length ?? 0)) return problem("too_short", t("form.check.tooShort", { what, min: q.min_length, n }));
  if (q.max_length && n > q.max_length) return problem("too_long", t("form.check.tooLong", { what, max: q.max_length, n }));
  return null;
}

function checkCriteria(q: Question, v: AnswerValue): FieldProblem | null {
  if (!Array.isArray(v)) return problem("invalid_type", t("form.check.expectedCriteria"));
  const count = checkCount(q, v.length, "Criteria");
  if (count) return count;
  const seen = new Set<string>();
  for (const [i, c] of v.entries()) {
    const norm = c.trim().toLowerCase();
    if (!norm) return problem("too_short", t("form.check.criterionEmpty", { n: i + 1 }));
    const p = checkLength(q, c, t("form.check.criterion", { n: i + 1 }));
    if (p) return p;
    if (seen.has(norm)) return problem("duplicate_key", t("form.check.criterionRepeats", { n: i + 1 }));
    seen.add(norm);
  }
  return null;
}
