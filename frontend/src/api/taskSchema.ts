// The task schema language (docs/task-schema.json, the Go package tasks/) and
// the answers it defines, as the API sends them. Generated from the contract
// where the document defines the shape; written here where it is silent.
import type { components } from "./schema.gen";

type Generated = components["schemas"];

/** A project's task schema: inputs, who sees them, and the questions asked. */
export type Schema = Omit<Generated["task-schema"], "$defs">;
export type Group = Generated["group"];
export type Input = Generated["input"];
export type Question = Generated["question"];
export type Anchor = Generated["anchor"];
export type Option = Generated["option"];
export type ChecklistItem = Generated["checklist_item"];

export type InputType = Input["type"];
export type Kind = Question["kind"];
export type Level = NonNullable<Question["level"]>;
export type Polarity = NonNullable<Question["yes_means"]>;
export type NAMeaning = NonNullable<Question["na_means"]>;

/** An item as templates carry it (external id, input values, hidden meta). */
export type Item = Generated["Item"];

/** A per-question problem, as the server reports it in 422 details. */
export type FieldProblem = Generated["FieldError"];
export type AnswerErrors = Record<string, FieldProblem>;

// Hand-written: the document describes these only in prose (Answers is an
// object of any values; candidates and media references are inside an
// item's free-form inputs).

/** The types a single candidate may have. */
export type CandidateType = Exclude<InputType, "json" | "candidates">;

/** A media file: a URL or path string, or an object naming an asset or URL. */
export type MediaRef = string | { asset?: string; url?: string; content_type?: string };

/** One candidate of a candidates input: `{slot, type, value}` as a worker receives it; leads also see `id`. */
export interface Candidate {
  slot?: string;
  id?: string;
  type: CandidateType;
  value: unknown;
  meta?: Record<string, unknown>;
}

/** Canonical answer values, by kind (see docs/tasks.md). */
export type BinaryAnswer = "yes" | "no" | "na";
export type LikertAnswer = number | "na";
export type PairwiseAnswer = "A" | "B" | "tie";
export type ChecklistAnswer = Record<string, number>;
/** One edit of a list_edit answer (sent as a list of them): an entry of the input list kept, dropped or reworded, or an added one. */
export interface ListEdit {
  op: "keep" | "drop" | "reword" | "add";
  from?: number;
  text?: string;
}
export type AnswerValue = BinaryAnswer | LikertAnswer | PairwiseAnswer | string | string[] | ChecklistAnswer;

/** One submission: question key → canonical answer. */
export type Answers = Record<string, AnswerValue | undefined>;
