// Types of the workflow part of /api/v1 — projects with schemas and policies,
// items, queues, assignments, ground truth — as aliases of the types generated
// from docs/openapi.yaml.
//
// Hand-written where the document is silent: see taskSchema.ts.
import type { Component, QueryParams, RequestBody, ResponseBody } from "./contract";

/** Where an item is. */
export type Stage = Component<"ItemStage">;
/** Stages a person claims work from. */
export type QueueStage = Component<"WorkStage">;

export type WorkflowPolicy = Component<"WorkflowPolicy">;
/** A project with its task schema and workflow, as GET /projects/:pid returns it. */
export type ProjectDetail = Component<"ProjectDetail">;

export type ProjectStats = Component<"ProjectStats">;
export type StageCount = ProjectStats["items"][number];
export type Throughput = ProjectStats["throughput"][number];

/** GET /projects/:pid/me/progress: the caller's own work and what is left for them, per stage. */
export type MyProgress = ResponseBody<"myProgress">;
export type StageProgress = MyProgress["stages"][number];
/** GET /projects/:pid/me/rejections: one of the caller's labels a reviewer rejected, with the reason. */
export type MyRejection = ResponseBody<"myRejections">["items"][number];

export type ImportReport = Component<"ImportReport">;
export type ImportLineError = ImportReport["errors"][number];
/** GET /projects/:pid/items/sample: what an import takes, made from the schema, with example lines. */
export type ItemSample = Component<"ItemSample">;
/** Where an import puts its items: production, or the calibration pool. */
export type ImportPool = ItemSample["pool"];
/** A file imported in the background (POST …/items?async=true), with its progress. */
export type BackgroundImport = Component<"BackgroundImport">;

/** An item with all its work, as a lead sees it. */
export type ItemRecord = Component<"LeadItem">;
export type ItemFlag = NonNullable<ItemRecord["flag"]>;
/** One person's work on an item in one stage. */
export type WorkRecord = Component<"Assignment">;
export type GroundTruth = Component<"GroundTruth">;
export type Provenance = GroundTruth["provenance"];
export type GroundTruthRevision = Component<"GroundTruthRevision">;
export type Prediction = Component<"Prediction">;
export type Criterion = Component<"Criterion">;
export type CriterionVerdict = RequestBody<"reviewCriterion">["status"];

/** GET /projects/:pid/items/:iid: one item with all its work and history. */
export type ItemDetailResponse = ResponseBody<"getItem">;
export type ItemPage = ResponseBody<"listItems">;
export type ItemFilter = QueryParams<"listItems">;

/** A claimed piece of work: POST /queue/next answered 200. */
export type Claim = Component<"Claim">;
export type ClaimContext = Claim["context"];
/** One label as an adjudicator sees it: original and counted answers, its review; `name` only when the project shows names. */
export type LabelView = NonNullable<ClaimContext["labels"]>[number];
/** A review of a label as an adjudicator sees it: verdict, correction and notes per question key. */
export type LabelReview = NonNullable<LabelView["review"]>;
export type Assignment = Claim["assignment"];
export type Disagreement = NonNullable<ClaimContext["disagreements"]>[number];
/** What the consensus rule made of one question of the counted labels. */
export type QuestionConsensus = NonNullable<ClaimContext["consensus"]>["questions"][number];
export type ConsensusState = QuestionConsensus["state"];

export type FlagCategory = RequestBody<"flagAssignment">["category"];
export type SubmitBody = Component<"Submission">;
export type ReviewVerdict = NonNullable<SubmitBody["verdict"]>;
export type SubmitResult = ResponseBody<"submitAssignment">;
