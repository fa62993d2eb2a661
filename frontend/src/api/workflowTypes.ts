// Types for the workflow part of /api/v1: projects with schemas and policies,
// items, queues, assignments, ground truth. Hand-written to match backend/api.
import type { Answers, AnswerValue, Schema } from "../form/schema";
import type { ID, Project } from "./types";

export type Stage = "criteria" | "criteria_review" | "split" | "label" | "review" | "adjudicate" | "done" | "dropped";
/** Stages a person claims work from. */
export type QueueStage = "label" | "review" | "adjudicate" | "criteria";

export interface WorkflowPolicy {
  overlap?: number;
  review?: "none" | "cross";
  adjudication?: "never" | "on_disagreement" | "always";
  consensus?: { nominal?: "unanimous" | "majority"; ordinal_tolerance?: number };
  on_no_consensus?: "adjudicate" | "drop";
  lease_minutes?: number;
  blind_review?: boolean;
  criteria_stage?: { form?: string; question?: string; input?: string } | null;
  draft_from_predictions?: { method: string; model?: string; rounding?: string } | null;
  spot_check_rate?: number;
  show_annotator_names?: boolean;
}

/** A project with its task schema and workflow, as GET /projects/:pid returns it. */
export interface ProjectDetail extends Project {
  template?: string;
  workflow?: WorkflowPolicy;
  schema_version?: number;
  schema?: Schema | null;
}

export interface StageCount {
  stage: Stage;
  flagged: boolean;
  count: number;
}

export interface Throughput {
  user_id: ID;
  name: string;
  stage: string;
  submitted: number;
  today: number;
}

export interface ProjectStats {
  items: StageCount[];
  throughput: Throughput[];
}

/** One stage of GET /projects/:pid/me/progress: the caller's own work and what is left for them. */
export interface StageProgress {
  stage: QueueStage;
  done_today: number;
  done_total: number;
  /** Work the caller could still be given in the stage, leaving out what they hold. */
  available: number;
  /** `available` stopped counting at the server's cap (1000). */
  available_capped: boolean;
}

export interface MyProgress {
  stages: StageProgress[];
}

export interface ImportLineError {
  line: number;
  error: string;
  details?: unknown;
}

export interface ImportReport {
  lines: number;
  imported: number;
  updated: number;
  unchanged: number;
  errors: ImportLineError[];
  errors_truncated?: boolean;
}

/** A file imported in the background (POST …/items?async=true), with its progress. */
export interface BackgroundImport {
  id: ID;
  kind: "items" | "predictions";
  /** The uploaded file's base name as sent with the upload; may be empty (or absent from an older server). */
  filename?: string;
  status: "queued" | "running" | "done" | "failed";
  bytes_total: number;
  bytes_done: number;
  lines_done: number;
  /** bytes_done / bytes_total × 100; 100 when done. */
  percent: number;
  report: ImportReport | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface ItemFlag {
  category?: string;
  reason?: string;
  by?: string;
  at?: string;
  [k: string]: unknown;
}

export interface WorkRecord {
  id: ID;
  user_id: ID;
  stage: string;
  status: string;
  answers?: Answers;
  corrected_answers?: Answers;
  review_status?: string;
  target_id?: ID;
  verdict?: string;
  comment?: string;
  /** Reviews: comments per question key. */
  comments?: Record<string, string>;
  rationale?: string;
  draft_source?: string;
  time_spent_ms: number;
  submitted_at?: string;
}

export interface Provenance {
  kind: "unanimous" | "majority" | "adjudicated" | "rule" | "constructed" | string;
  by?: ID;
  rationale?: string;
  details?: unknown;
  at: string;
}

export interface GroundTruth {
  answers: Answers;
  provenance: Provenance;
  revision: number;
}

export interface ItemRecord {
  id: ID;
  external_id: string;
  parent_id?: ID;
  stage: Stage;
  flag?: ItemFlag | null;
  drop_reason?: string | null;
  spot_check?: boolean;
  inputs: Record<string, unknown>;
  meta?: Record<string, unknown>;
  annotations: WorkRecord[];
  reviews: WorkRecord[];
  other_work?: WorkRecord[];
  ground_truth: GroundTruth | null;
  created_at?: string;
  updated_at?: string;
}

/** One stored revision of an item's ground truth (GET /items/:iid). */
export interface GroundTruthRevision {
  revision: number;
  answers: Answers;
  provenance: Provenance["kind"];
  decided_by?: ID;
  rationale?: string;
  details?: Record<string, unknown>;
  created_at: string;
}

/** A model's imported answers for an item. */
export interface Prediction {
  item_id: ID;
  model: string;
  answers: Answers;
  created_at: string;
}

/** GET /projects/:pid/items/:iid: one item with all its work and history. */
export interface ItemDetailResponse {
  item: ItemRecord;
  ground_truth_history: GroundTruthRevision[];
  criteria: Criterion[];
  predictions: Prediction[];
}

export interface ItemPage {
  items: ItemRecord[];
  next_cursor: string;
}

export interface ItemFilter {
  stage?: string;
  flagged?: boolean;
  external_id?: string;
  cursor?: string;
  limit?: number;
}

export interface Criterion {
  id: ID;
  item_id: ID;
  text: string;
  status: "pending" | "valid" | "too_vague" | "too_specific";
  author_id: ID;
  created_at?: string;
}

export type CriterionVerdict = "valid" | "too_vague" | "too_specific";

export interface Assignment {
  id: ID;
  stage: QueueStage;
  lease_expires_at: string;
  version: number;
  schema_version: number;
  draft_source?: string | null;
}

/** One label as an adjudicator sees it; `name` only when the project shows names. */
export interface LabelView {
  assignment_id: ID;
  by: string;
  name?: string;
  answers: Answers;
  review?: {
    by: string;
    name?: string;
    verdict: string;
    comment?: string;
    /** The reviewer's notes per question: question key → text. */
    comments?: Record<string, string>;
    answers?: Answers;
  };
}

export interface Disagreement {
  question: string;
  resolved: boolean;
  values: AnswerValue[];
}

export interface ClaimContext {
  /** Review: the label under review, unless the review is blind. */
  label?: { answers: Answers; submitted_at?: string; time_spent_ms?: number };
  blind?: boolean;
  /** Adjudication. */
  labels?: LabelView[];
  disagreements?: Disagreement[];
  consensus?: { agreed: boolean; provenance?: string };
  [k: string]: unknown;
}

/** A claimed piece of work: POST /queue/next answered 200. */
export interface Claim {
  assignment: Assignment;
  item: { role: string; schema: Schema; item: { external_id?: string; inputs: Record<string, unknown>; meta?: Record<string, unknown> } };
  draft: Answers | null;
  context: ClaimContext;
}

export type FlagCategory = "broken_media" | "unsafe_content" | "wrong_modality" | "other";

export type ReviewVerdict = "approve" | "correct" | "reject";

export interface SubmitBody {
  answers?: Answers;
  time_spent_ms?: number;
  verdict?: ReviewVerdict;
  /** The overall note. */
  comment?: string;
  /** Review only: a comment per question key (unknown keys are refused with 422). */
  comments?: Record<string, string>;
  rationale?: string;
  confidence?: number;
  error_category?: string;
}

export interface SubmitResult {
  assignment: { id: ID; stage: string; status: string; submitted_at?: string };
  item_stage: Stage;
  replayed: boolean;
}
