// TypeScript mirror of the task schema language defined by the Go package
// tasks/ (schema.go, item.go, answers.go). Field names are the JSON names.

export type InputType =
  | "text"
  | "markdown"
  | "image"
  | "image_list"
  | "video"
  | "audio"
  | "model3d"
  | "json"
  | "candidates";

/** The types a single candidate may have. */
export type CandidateType = Exclude<InputType, "json" | "candidates">;

export type Kind =
  | "binary"
  | "likert"
  | "choice"
  | "multi_choice"
  | "pairwise"
  | "ranking"
  | "checklist"
  | "text"
  | "criteria";

export type Level = "nominal" | "ordinal" | "interval" | "ratio" | "none";
export type Polarity = "satisfied" | "defect";
export type NAMeaning = "missing" | "satisfied" | "not_satisfied";

export interface Group {
  key: string;
  label: string;
  help?: string;
}

export interface Input {
  name: string;
  type: InputType;
  label?: string;
  help?: string;
  hidden?: boolean;
  visible_to?: string[];
  optional?: boolean;
  max_items?: number;
  count?: number;
}

export interface Anchor {
  value: number;
  label: string;
}

export interface Option {
  key: string;
  label: string;
  help?: string;
}

export interface ChecklistItem {
  key: string;
  label: string;
  help?: string;
  max: number;
}

export interface Question {
  key: string;
  index?: number;
  kind: Kind;
  label: string;
  short_label?: string;
  help?: string;
  group?: string;
  required?: boolean;
  level?: Level;
  /** The inputs this question may see; empty or missing means all. */
  inputs?: string[];
  min?: number;
  max?: number;
  anchors?: Anchor[];
  options?: Option[];
  items?: ChecklistItem[];
  allow_na?: boolean;
  na_means?: NAMeaning;
  yes_means?: Polarity;
  allow_tie?: boolean;
  candidates?: string;
  min_length?: number;
  max_length?: number;
  placeholder?: string;
}

export interface Schema {
  format?: number;
  version: number;
  title?: string;
  instructions?: string;
  groups?: Group[];
  inputs: Input[];
  questions: Question[];
}

/** A media file: a URL or path string, or an object naming an asset or URL. */
export type MediaRef = string | { asset?: string; url?: string; content_type?: string };

export interface Candidate {
  id: string;
  type: CandidateType;
  value: unknown;
  meta?: Record<string, unknown>;
}

export interface Item {
  external_id: string;
  inputs: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

/** Canonical answer values, by kind (see tasks/answers.go). */
export type BinaryAnswer = "yes" | "no" | "na";
export type LikertAnswer = number | "na";
export type PairwiseAnswer = "A" | "B" | "tie";
export type ChecklistAnswer = Record<string, number>;
export type AnswerValue =
  | BinaryAnswer
  | LikertAnswer
  | PairwiseAnswer
  | string
  | string[]
  | ChecklistAnswer;

/** One submission: question key → canonical answer. */
export type Answers = Record<string, AnswerValue | undefined>;

/** A per-question problem, as the server reports it in 422 details. */
export interface FieldProblem {
  code: string;
  message: string;
}
export type AnswerErrors = Record<string, FieldProblem>;

/** The slot letter for position i (0 → "A"). */
export function slotLabel(i: number): string {
  return String.fromCharCode(65 + i);
}

/** The candidates input a pairwise or ranking question compares. */
export function candidatesInput(schema: Schema, q: Question): Input | undefined {
  if (q.candidates) return schema.inputs.find((i) => i.name === q.candidates && i.type === "candidates");
  const all = schema.inputs.filter((i) => i.type === "candidates");
  return all.length === 1 ? all[0] : undefined;
}

/** Whether question q may see input name (no restriction means all). */
export function questionSees(q: Question | undefined, name: string): boolean {
  return !q || !q.inputs || q.inputs.length === 0 || q.inputs.includes(name);
}

/** Inputs an annotator is shown: hidden ones are left out. */
export function visibleInputs(schema: Schema): Input[] {
  return schema.inputs.filter((i) => !i.hidden);
}

/** The candidates of an item value, or [] when it is not a list. */
export function asCandidates(value: unknown): Candidate[] {
  return Array.isArray(value) ? (value as Candidate[]) : [];
}
