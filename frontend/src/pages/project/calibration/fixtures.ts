// Responses of the calibration endpoints for the page tests.
import type { MyRoundResult, Round, RoundDetail, RoundReport } from "../../../api/quality";
import type { ProjectDetail } from "../../../api/workflowTypes";

export const calibrationProject = {
  id: "p1",
  name: "RoboJudge pilot",
  my_roles: ["lead"],
  schema: {
    version: 1,
    inputs: [],
    questions: [
      { key: "physical", kind: "likert", label: "Physical adherence", short_label: "Physical", min: 1, max: 5, level: "ordinal" },
      { key: "realistic", kind: "binary", label: "Is it realistic?", short_label: "Realistic", level: "nominal" },
      { key: "why", kind: "text", label: "Why?" },
    ],
  },
} as unknown as ProjectDetail;

const people = [
  { user_id: "a", name: "Ann", email: "ann@example.com" },
  { user_id: "b", name: "Bo", email: "bo@example.com" },
  { user_id: "c", name: "Cy", email: "cy@example.com" },
];

export const round = (over: Partial<Round> = {}): Round => ({
  id: "r1",
  number: 2,
  name: "Second pass",
  status: "open",
  created_at: "2026-12-01T07:00:00Z",
  closed_at: null,
  pass: { metric: "accuracy_vs_gold", threshold: 0.8, questions: ["physical"] },
  items: 4,
  participants: people.map((p, i) => ({ ...p, done: [4, 2, 0][i] })),
  completion: 0.5,
  ...over,
});

export const roundDetail = (over: Partial<Round> = {}): RoundDetail => ({
  ...round(over),
  item_ids: [1, 2, 3, 4].map((i) => ({ id: `i${i}`, external_id: `clip-00${i}` })),
});

export const report = (): RoundReport => ({
  round: round({ status: "closed", closed_at: "2026-12-01T08:00:00Z", completion: 1 }),
  annotators: people.map((p, i) => ({
    user_id: p.user_id,
    name: p.name,
    items_done: 4,
    median_seconds: 12 + i,
    score: [0.9, 0.75, 0.5][i],
    passed: i === 0,
    questions: {
      physical: { accuracy: [0.9, 0.75, 0.5][i], yes_accuracy: null, no_accuracy: null, exact: 0.5, within_one: 0.9, mad: 0.6, peer_agreement: 0.7, peers: {} },
      realistic: { accuracy: 1, yes_accuracy: 1, no_accuracy: 0.5, exact: null, within_one: null, mad: null, peer_agreement: 0.8, peers: {} },
    },
  })),
  questions: [
    { key: "physical", label: "Physical adherence", type: "likert", level: "ordinal", alpha: 0.44, alpha_ci: [0.21, 0.63], exact: 0.529, within_one: 0.921, mad: 0.58, n_units: 4, n_ratings: 12 },
    { key: "realistic", label: "Is it realistic?", type: "binary", level: "nominal", alpha: 0.7, alpha_ci: [0.4, 0.9], exact: null, within_one: null, mad: null, n_units: 4, n_ratings: 12 },
  ],
  pooled: null,
  matrix: {
    annotators: people.map(({ user_id, name }) => ({ user_id, name })),
    values: [
      [null, 0.75, 0.5],
      [0.75, null, 0.625],
      [0.5, 0.625, null],
    ],
  },
  disputed: [
    {
      item_id: "i3",
      external_id: "clip-003",
      question: "physical",
      gold: 4,
      answers: [
        { user_id: "a", name: "Ann", answer: 4 },
        { user_id: "b", name: "Bo", answer: 2 },
        { user_id: "c", name: "Cy", answer: 1 },
      ],
    },
  ],
  trend: {
    rounds: [1, 2],
    questions: {
      physical: { alpha: [0.2, 0.44], exact: [0.328, 0.529], within_one: [0.762, 0.921], mad: [0.98, 0.58] },
      realistic: { alpha: [0.5, 0.7], exact: [null, null], within_one: [null, null], mad: [null, null] },
    },
    pooled: null,
  },
  pass: { metric: "accuracy_vs_gold", threshold: 0.8, questions: ["physical"] },
});

/** A report of a form with two scores on one scale (RoboJudge's PA and IA), with Table 5's pooled figures. */
export const pooledReport = (): RoundReport => {
  const r = report();
  const alignment = { ...r.questions[0], key: "alignment", label: "Instruction alignment", alpha: 0.61, exact: 0.6, within_one: 0.95, mad: 0.45 };
  return {
    ...r,
    questions: [r.questions[0], alignment, r.questions[1]],
    pooled: { questions: ["physical", "alignment"], alpha: 0.52, alpha_ci: [0.3, 0.7], exact: 0.529, within_one: 0.921, mad: 0.58, n_units: 8, n_ratings: 24 },
    trend: {
      ...r.trend,
      questions: { ...r.trend.questions, alignment: { alpha: [0.3, 0.61], exact: [0.4, 0.6], within_one: [0.8, 0.95], mad: [0.7, 0.45] } },
      pooled: { alpha: [0.25, 0.52], exact: [0.328, 0.529], within_one: [0.762, 0.921], mad: [0.98, 0.58] },
    },
  };
};

export const mine = (): MyRoundResult => ({
  round: round({ status: "closed", closed_at: "2026-12-01T08:00:00Z" }),
  score: 0.75,
  passed: false,
  items: [
    {
      item_id: "i3",
      position: 3,
      questions: [
        { key: "physical", label: "Physical adherence", mine: 2, reference: 4, reference_kind: "gold", agrees: false, notes: ["The arm passes through the table: that is a 2 only if the object also floats."] },
        { key: "realistic", label: "Is it realistic?", mine: "yes", reference: "yes", reference_kind: "majority", agrees: true, notes: [] },
      ],
    },
  ],
});

export const members = people.map((p) => ({ ...p, roles: ["annotator"], paused: false }));
