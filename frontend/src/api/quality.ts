// Typed calls and types for calibration rounds, the lead's quality page and
// project agreement: how far people agree, with gold, with each other and
// round over round. The types are aliases of those generated from
// docs/openapi.yaml.
import { useMemo } from "react";
import type { ApiClient } from "./client";
import { useApiClient } from "./context";
import type { Component, RequestBody } from "./contract";
import type { ID } from "./types";

/** A figure that is null when it is undefined (no gold, a nominal question's ordinal figures, …). */
export type Num = number | null;

/** What an annotator must reach in a round to pass it. */
export type PassRule = Component<"CalibrationPassRule">;
export type PassMetric = PassRule["metric"];

/** A calibration round with its completion. */
export type Round = Component<"CalibrationRound">;
export type RoundParticipant = Round["participants"][number];
/** One round as a lead sees it, with the items it is over. */
export type RoundDetail = Component<"CalibrationRoundDetail">;
/** A new round over chosen pool items or a sample of the pool. */
export type RoundRequest = Component<"CalibrationRoundRequest">;

/** GET …/calibration-rounds/:rid/report. */
export type RoundReport = Component<"CalibrationReport">;
export type ReportAnnotator = RoundReport["annotators"][number];
export type ReportQuestion = Component<"CalibrationQuestionFigures">;
export type DisputedPair = RoundReport["disputed"][number];
export type TrendFigures = RoundReport["trend"]["questions"][string];

export type NoteRequest = RequestBody<"addCalibrationNote">;

/** A participant's own answers in a closed round beside gold (or the majority) and the lead's notes. */
export type MyRoundResult = Component<"CalibrationMine">;
export type MyRoundQuestion = MyRoundResult["items"][number]["questions"][number];

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
