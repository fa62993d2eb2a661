// Typed calls and types for calibration rounds, the lead's quality page and
// project agreement: how far people agree, with gold, with each other and
// round over round. Quality and agreement are aliases of the types generated
// from docs/openapi.yaml; the calibration types are written here from the
// issue's contract until the document describes them.
import { useMemo } from "react";
import type { ApiClient } from "./client";
import { useApiClient } from "./context";
import type { Component } from "./contract";
import type { ID } from "./types";

/** A figure that is null when it is undefined (no gold, a nominal question's ordinal figures, …). */
export type Num = number | null;

export type PassMetric = "accuracy_vs_gold" | "exact_with_peers" | "within_one_with_peers" | "alpha_with_peers";

/** What an annotator must reach in a round to pass it. */
export interface PassRule {
  metric: PassMetric;
  threshold: number;
  /** Only these questions count; absent or empty: every question. */
  questions?: string[] | null;
}

export interface RoundParticipant {
  user_id: ID;
  name: string;
  email: string;
  /** Items of the round this person has labeled. */
  done: number;
}

export interface Round {
  id: ID;
  number: number;
  name: string;
  status: "open" | "closed";
  created_at: string;
  closed_at: string | null;
  pass: PassRule;
  items: number;
  participants: RoundParticipant[];
  /** Share of (participant, item) labels submitted, 0..1. */
  completion: number;
}

/** One round as a lead sees it, with the items it is over. */
export interface RoundDetail extends Round {
  item_ids: { id: ID; external_id: string }[];
}

/** A new round over chosen pool items or a sample of the pool. */
export type RoundRequest = {
  name: string;
  participants: string[];
  pass: PassRule;
} & ({ external_ids: string[] } | { sample: number });

export interface PeerFigures {
  exact: Num;
  within_one: Num;
  mad: Num;
}

export interface AnnotatorQuestionFigures extends PeerFigures {
  accuracy: Num;
  yes_accuracy: Num;
  no_accuracy: Num;
  peer_agreement: Num;
  peers: Record<ID, PeerFigures>;
}

export interface ReportAnnotator {
  user_id: ID;
  name: string;
  items_done: number;
  median_seconds: Num;
  /** The figure the pass rule names, over the questions it names. */
  score: Num;
  passed: boolean;
  questions: Record<string, AnnotatorQuestionFigures>;
}

export type Level = "nominal" | "ordinal" | "interval" | "ratio";

export interface ReportQuestion {
  key: string;
  label: string;
  type: string;
  level: Level;
  alpha: Num;
  alpha_ci: [number, number] | null;
  exact: Num;
  within_one: Num;
  mad: Num;
  n_units: number;
  n_ratings: number;
}

/** Pairwise agreement between annotators, 0..1 (null where two people share no item). */
export interface AgreementMatrix {
  annotators: { user_id: ID; name: string }[];
  values: Num[][];
}

export interface DisputedPair {
  item_id: ID;
  external_id: string;
  question: string;
  gold: unknown;
  answers: { user_id: ID; name: string; answer: unknown }[];
}

export interface TrendFigures {
  alpha: Num[];
  exact: Num[];
  within_one: Num[];
  mad: Num[];
}

export interface RoundReport {
  round: Round;
  annotators: ReportAnnotator[];
  questions: ReportQuestion[];
  matrix: AgreementMatrix;
  disputed: DisputedPair[];
  /** Every round of the project up to this one, oldest first: one array per figure. */
  trend: { rounds: number[]; questions: Record<string, TrendFigures> };
  pass: PassRule;
}

export interface NoteRequest {
  item_id: ID;
  question: string;
  note: string;
}

export interface MyRoundQuestion {
  key: string;
  label: string;
  mine: unknown;
  reference: unknown;
  reference_kind: "gold" | "majority" | null;
  agrees: boolean | null;
  notes: string[];
}

/** A participant's own answers in a closed round beside gold (or the majority) and the lead's notes. */
export interface MyRoundResult {
  round: Round;
  score: Num;
  passed: boolean;
  items: { item_id: ID; external_id: string; questions: MyRoundQuestion[] }[];
}

/** GET /projects/:pid/quality: each annotator's figures and flags. */
export type QualityReport = Component<"QualityReport">;
export type QualityAnnotator = Component<"AnnotatorQuality">;
export type QualityFlag = QualityAnnotator["flags"][number];

/** GET /projects/:pid/agreement: per question, macro averages and the annotator matrix. */
export type AgreementReport = Component<"AgreementReport">;
export type AgreementQuestion = Component<"QuestionAgreement">;

const proj = (pid: ID) => `/api/v1/projects/${encodeURIComponent(pid)}`;
const rounds = (pid: ID) => `${proj(pid)}/calibration-rounds`;
const round = (pid: ID, rid: ID) => `${rounds(pid)}/${encodeURIComponent(rid)}`;

/** The calibration, quality and agreement endpoints. */
export function qualityApi(c: ApiClient) {
  return {
    rounds: (pid: ID) => c.get<{ rounds: Round[] }>(rounds(pid)).then((r) => r.rounds),
    round: (pid: ID, rid: ID) => c.get<RoundDetail>(round(pid, rid)),
    createRound: (pid: ID, req: RoundRequest) => c.post<Round>(rounds(pid), req),
    closeRound: (pid: ID, rid: ID) => c.post<Round>(`${round(pid, rid)}/close`),
    report: (pid: ID, rid: ID) => c.get<RoundReport>(`${round(pid, rid)}/report`),
    addNote: (pid: ID, rid: ID, req: NoteRequest) => c.post<{ id: ID }>(`${round(pid, rid)}/notes`, req),
    mine: (pid: ID, rid: ID) => c.get<MyRoundResult>(`${round(pid, rid)}/mine`),
    quality: (pid: ID) => c.get<QualityReport>(`${proj(pid)}/quality`),
    liftPause: (pid: ID, uid: ID) => c.put<unknown>(`${proj(pid)}/members/${encodeURIComponent(uid)}`, { paused: false }),
    agreement: (pid: ID, stage = "label") =>
      c.get<AgreementReport>(`${proj(pid)}/agreement?stage=${encodeURIComponent(stage)}`),
  };
}

export function useQualityApi() {
  const c = useApiClient();
  return useMemo(() => qualityApi(c), [c]);
}

export const qualityKeys = {
  rounds: (pid: ID) => ["projects", pid, "calibration-rounds"] as const,
  round: (pid: ID, rid: ID) => ["projects", pid, "calibration-rounds", rid] as const,
  report: (pid: ID, rid: ID) => ["projects", pid, "calibration-rounds", rid, "report"] as const,
  mine: (pid: ID, rid: ID) => ["projects", pid, "calibration-rounds", rid, "mine"] as const,
  quality: (pid: ID) => ["projects", pid, "quality"] as const,
  agreement: (pid: ID, stage: string) => ["projects", pid, "agreement", stage] as const,
};

export const PASS_METRICS: { value: PassMetric; label: string }[] = [
  { value: "accuracy_vs_gold", label: "Accuracy against gold" },
  { value: "exact_with_peers", label: "Exact agreement with peers" },
  { value: "within_one_with_peers", label: "Agreement within ±1 with peers" },
  { value: "alpha_with_peers", label: "Krippendorff α with peers" },
];
