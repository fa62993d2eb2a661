// Typed calls and types for calibration rounds, the lead's quality page and
// project agreement: how far people agree, with gold, with each other and
// round over round. The types are aliases of those generated from
// docs/openapi.yaml.
import { useMemo } from "react";
import type { ApiClient } from "./client";
import { useApiClient } from "./context";
import type { Component, QueryParams, RequestBody } from "./contract";
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
/** The stage whose labels agreement is computed over. */
export type AgreementStage = NonNullable<QueryParams<"projectAgreement">["stage"]>;

/** The calibration, quality and agreement endpoints. */
export function qualityApi(c: ApiClient) {
  const round = (pid: ID, rid: ID) => ({ path: { pid, rid } });
  return {
    rounds: (pid: ID) => c.get("/projects/{pid}/calibration-rounds", { path: { pid } }).then((r) => r.rounds),
    round: (pid: ID, rid: ID) => c.get("/projects/{pid}/calibration-rounds/{rid}", round(pid, rid)),
    createRound: (pid: ID, req: RoundRequest) => c.post("/projects/{pid}/calibration-rounds", { path: { pid }, body: req }),
    closeRound: (pid: ID, rid: ID) => c.post("/projects/{pid}/calibration-rounds/{rid}/close", round(pid, rid)),
    report: (pid: ID, rid: ID) => c.get("/projects/{pid}/calibration-rounds/{rid}/report", round(pid, rid)),
    addNote: (pid: ID, rid: ID, req: NoteRequest) => c.post("/projects/{pid}/calibration-rounds/{rid}/notes", { ...round(pid, rid), body: req }),
    mine: (pid: ID, rid: ID) => c.get("/projects/{pid}/calibration-rounds/{rid}/mine", round(pid, rid)),
    quality: (pid: ID) => c.get("/projects/{pid}/quality", { path: { pid } }),
    liftPause: (pid: ID, uid: ID) => c.put("/projects/{pid}/members/{uid}", { path: { pid, uid }, body: { paused: false } }),
    agreement: (pid: ID, stage: AgreementStage = "label") => c.get("/projects/{pid}/agreement", { path: { pid }, query: { stage } }),
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
