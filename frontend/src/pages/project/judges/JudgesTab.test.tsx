import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import type { JudgeBoard, JudgeReport } from "../../../api/insight";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { JudgesTab } from "./JudgesTab";
import { chartsDrawn } from "../../../test/charts";

const project = { id: "p1", name: "Judges", my_roles: ["lead"] } as ProjectDetail;

/** Two questions' coupling: the judge couples them (r) far more than the ground truth does (0.1). */
const coupling = (r: number) => ({
  questions: ["clarity", "noise"],
  judge: [
    [1, r],
    [r, 1],
  ],
  reference: [
    [1, 0.1],
    [0.1, 1],
  ],
  excess: [
    [0, r - 0.1],
    [r - 0.1, 0],
  ],
  yes_side: [
    [1, null],
    [null, 1],
  ],
  no_side: [
    [1, 0.9],
    [0.9, 1],
  ],
  coupled: r > 0.6 ? 1 : 0,
  strong: r > 0.8 ? 1 : 0,
});

const binary = (accuracy: number, ci: [number, number], diff?: number): JudgeReport => ({
  kind: "binary",
  n: 36,
  n_missing: 0,
  accuracy,
  balanced_accuracy: accuracy - 0.02,
  yes_accuracy: accuracy + 0.03,
  no_accuracy: accuracy - 0.05,
  mcc: accuracy - 0.2,
  exact_match: accuracy - 0.4,
  total_score_deviation: { mean_abs: 1 - accuracy, mean_signed: 0.1, share_equal: 0.4 },
  coupling: coupling(accuracy > 0.8 ? 0.85 : 0.3),
  ci95: { accuracy: ci, balanced_accuracy: null },
  ...(diff !== undefined ? { difference: { accuracy: { estimate: diff, ci95: [diff - 0.05, diff + 0.05], p_value: 0.01 } } } : {}),
  notes: [],
});

const score = (pearson: number): JudgeReport => ({
  kind: "score",
  n: 12,
  n_missing: 0,
  pearson,
  spearman: pearson - 0.01,
  kendall_tau_b: pearson - 0.1,
  mse: 0.8,
  mae: 0.6,
  share_over: 0.25,
  share_under: 0.25,
  ci95: { pearson: [pearson - 0.2, Math.min(1, pearson + 0.1)] },
  notes: [],
});

export const judgeBoard = (over: Partial<JudgeBoard> = {}): JudgeBoard => ({
  status: "ready",
  computed_at: "2026-12-01T07:00:00Z",
  cluster_key: "",
  strata_key: "",
  system_key: "generator",
  models: ["late", "m1", "m2"],
  groups: [
    {
      key: "binary",
      label: "All binary questions",
      kind: "binary",
      questions: ["clarity", "noise"],
      items: 12,
      headline: "accuracy",
      best: "m1",
      rows: [
        { model: "late", reason: "no prediction on the ground truth of this group", report: null, system: null, points: [] },
        { model: "m1", report: binary(0.86, [0.8, 0.91]), system: null, points: [] },
        { model: "m2", report: binary(0.67, [0.58, 0.75], -0.19), system: null, points: [] },
      ],
    },
    {
      key: "mos",
      label: "Overall quality",
      kind: "score",
      questions: ["mos"],
      items: 12,
      headline: "pearson",
      best: "m2",
      rows: [
        {
          model: "m1",
          report: score(0.55),
          system: null,
          points: [
            { human: 1, judge: 2, count: 3 },
            { human: 3, judge: 3, count: 5 },
          ],
        },
        {
          model: "m2",
          report: score(0.81),
          system: {
            systems: [
              { system: "g1", items: 6, human: 3.1, judge: 3.3 },
              { system: "g2", items: 6, human: 2.2, judge: 2.0 },
              { system: "g3", items: 6, human: 4.0, judge: 3.8 },
            ],
            pearson: 0.97,
            spearman: 1,
            kendall_tau_b: 1,
            leave_one_out: [
              { system: "g1", pearson: 1 },
              { system: "g2", pearson: 0.9 },
              { system: "g3", pearson: null },
            ],
          },
          points: [
            { human: 1, judge: 1, count: 4 },
            { human: 5, judge: 4, count: 2 },
          ],
        },
      ],
    },
  ],
  ...over,
});

const models = (table: HTMLElement) => within(table).getAllByRole("row").slice(1).map((r) => r.getAttribute("data-model"));

// note: the first chart loads the chart chunk lazily, which takes seconds on a busy machine
describe("JudgesTab", { timeout: 20000 }, () => {
  it("ranks models per group by the headline, sorts on any column and shows the reason of a row without a report", async () => {
    renderInProject(<JudgesTab />, project, { "GET /api/v1/projects/p1/judges": () => json(200, judgeBoard()) });
    const table = await screen.findByRole("table", { name: "Leaderboard All binary questions" }, { timeout: 5000 });
    await chartsDrawn();
    expect(models(table)).toEqual(["m1", "m2", "late"]);
    const m2 = within(table).getByRole("row", { name: /m2/ });
    expect(m2.textContent).toContain("67.0 %");
    expect(m2.textContent).toContain("[0.58, 0.75]");
    expect(m2.textContent).toContain("-0.190");
    expect(within(table).getByRole("row", { name: /m1/ }).textContent).toContain("best");
    expect(within(table).getByRole("row", { name: /late/ }).textContent).toContain("no prediction on the ground truth of this group");
    // |Δ total| is better low: the first click sorts ascending
    fireEvent.click(within(table).getByRole("button", { name: "|Δ total|" }));
    expect(models(table)).toEqual(["m1", "m2", "late"]);
    fireEvent.click(within(table).getByRole("button", { name: "Accuracy" }));
    expect(models(table)).toEqual(["m1", "m2", "late"]);
    fireEvent.click(within(table).getByRole("button", { name: "Accuracy" }));
    expect(models(table)).toEqual(["m2", "m1", "late"]);
    expect(within(table).getByRole("columnheader", { name: "Accuracy" }).getAttribute("aria-sort")).toBe("ascending");
    expect(screen.getByTestId("chart-judges-binary").querySelector("svg")).not.toBeNull();
    const scores = screen.getByRole("table", { name: "Leaderboard Overall quality" });
    expect(models(scores)).toEqual(["m2", "m1"]);
  });

  it("draws judge against human for the chosen model, the best one first", async () => {
    renderInProject(<JudgesTab />, project, { "GET /api/v1/projects/p1/judges": () => json(200, judgeBoard()) });
    const select = (await screen.findByLabelText("Model", {}, { timeout: 5000 })) as HTMLSelectElement;
    await chartsDrawn();
    expect(select.value).toBe("m2");
    expect(screen.getByText(/6 items; a dot's size/)).toBeTruthy();
    fireEvent.change(select, { target: { value: "m1" } });
    expect(screen.getByText(/8 items; a dot's size/)).toBeTruthy();
    expect(screen.getByTestId("chart-scatter").querySelector("svg")).not.toBeNull();
    const sys = screen.getByRole("table", { name: "System-level correlation" });
    expect(within(sys).getByRole("row", { name: /m2/ }).textContent).toContain("0.900 – 1.000");
  });

  it("draws the dimension coupling of the best model, then of the chosen model and matrix", async () => {
    renderInProject(<JudgesTab />, project, { "GET /api/v1/projects/p1/judges": () => json(200, judgeBoard()) });
    const judge = (await screen.findByLabelText("Judge", {}, { timeout: 5000 })) as HTMLSelectElement;
    await chartsDrawn();
    expect(judge.value).toBe("m1");
    expect([...judge.options].map((o) => o.value)).toEqual(["m1", "m2"]);
    expect(screen.getByTestId("coupling-summary").textContent).toBe("m1: 1 coupled pair (r > 0.6), 1 strongly entangled (r > 0.8) of 1.");
    const chart = screen.getByTestId("chart-coupling");
    expect(chart.getAttribute("aria-label")).toBe("Judge dimension-coupling matrix of m1 over the binary questions");
    expect(chart.querySelector("svg")?.textContent).toContain("0.85");
    fireEvent.change(judge, { target: { value: "m2" } });
    expect(screen.getByTestId("coupling-summary").textContent).toBe("m2: 0 coupled pairs (r > 0.6), 0 strongly entangled (r > 0.8) of 1.");
    fireEvent.change(screen.getByLabelText("Matrix"), { target: { value: "no_side" } });
    expect(screen.getByTestId("chart-coupling").getAttribute("aria-label")).toBe("No side dimension-coupling matrix of m2 over the binary questions");
    await waitFor(() => expect(screen.getByTestId("chart-coupling").querySelector("svg")?.textContent).toContain("0.90"));
  });

  it("sends the bootstrap keys and names a key some items lack", async () => {
    const { calls, fetch } = renderInProject(<JudgesTab />, project, {
      "GET /api/v1/projects/p1/judges": [
        () => json(200, judgeBoard()),
        () => json(422, { error: { code: "validation_failed", message: "some items lack the key", details: { cluster_key: { code: "missing_meta", message: "3 items have no corpus" } } } }),
      ],
    });
    await screen.findByRole("table", { name: "Leaderboard All binary questions" }, { timeout: 5000 });
    fireEvent.change(screen.getByLabelText("Cluster key"), { target: { value: "corpus" } });
    fireEvent.click(screen.getByRole("button", { name: "Apply" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("cluster_key");
    await waitFor(() => expect(calls.length).toBe(2));
    const urls = (fetch as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => String(c[0]));
    expect(urls[1]).toMatch(/\/judges\?cluster_key=corpus$/);
  });

  it("says when no model has predictions", async () => {
    renderInProject(<JudgesTab />, project, { "GET /api/v1/projects/p1/judges": () => json(200, judgeBoard({ models: [], groups: [] })) });
    expect(await screen.findByText("No predictions yet", {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole("region", { name: "Import predictions" })).toBeTruthy();
    expect(screen.getByLabelText("Predictions file")).toBeTruthy();
  });

  it("offers the predictions import to leads only", async () => {
    const viewer = { ...project, my_roles: ["viewer"] } as ProjectDetail;
    renderInProject(<JudgesTab />, viewer, { "GET /api/v1/projects/p1/judges": () => json(200, judgeBoard({ models: [], groups: [] })) });
    expect(await screen.findByText(/A lead imports a model's predictions/, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByLabelText("Predictions file")).toBeNull();
  });
});
