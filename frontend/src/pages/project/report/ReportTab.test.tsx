import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import type { DatasetReport } from "../../../api/insight";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { ReportTab } from "./ReportTab";
import { chartsDrawn } from "../../../test/charts";

const project = { id: "p1", name: "Omni", my_roles: ["viewer"] } as ProjectDetail;

export const datasetReport = (over: Partial<DatasetReport> = {}): DatasetReport => ({
  status: "ready",
  computed_at: "2026-12-01T07:00:00Z",
  items: 40,
  decided: 30,
  languages: [],
  adaptive: null,
  stages: [
    { value: "done", count: 30 },
    { value: "dropped", count: 6 },
    { value: "label", count: 4 },
  ],
  provenance: [
    { value: "majority", count: 18 },
    { value: "adjudicated", count: 12 },
  ],
  dropped: [
    { value: "no consensus", count: 4 },
    { value: "unspecified", count: 2 },
  ],
  dropped_share: 0.15,
  criteria: { written: 20, pending: 2, valid: 12, too_vague: 4, too_specific: 2, loss_share: 1 / 3 },
  labels: 96,
  labels_per_item: [
    { labels: 2, items: 6 },
    { labels: 3, items: 30 },
  ],
  reviews: [
    { value: "approve", count: 50 },
    { value: "correct", count: 8 },
    { value: "reject", count: 3 },
  ],
  adjudication: [
    { key: "preference", label: "Which is better?", disagreed: 14, adjudicated: 12, rate: 0.4 },
    { key: "confidence", label: "Confidence", disagreed: 0, adjudicated: 0, rate: 0 },
  ],
  median_seconds: 42.5,
  annotators: [
    { user_id: "u1", name: "Ann", labels: 50, median_seconds: 38 },
    { user_id: "u2", name: "Bo", labels: 46, median_seconds: null },
  ],
  scores: [
    {
      key: "preference",
      label: "Which is better?",
      kind: "pairwise",
      values: [
        { value: "A", count: 14 },
        { value: "B", count: 12 },
        { value: "tie", count: 4 },
      ],
    },
  ],
  ...over,
});

describe("ReportTab", () => {
  it("shows what adaptive overlap spent against its baseline", async () => {
    renderInProject(<ReportTab />, project, {
      "GET /api/v1/projects/p1/report": () =>
        json(200, datasetReport({ adaptive: { baseline: 3, labels: 96, baseline_labels: 120, ratio: 0.8, posteriors: 30, estimated_accuracy: 0.962, questions: { preference: 0.962 } } })),
    });
    const p = await screen.findByTestId("adaptive-saving", {}, { timeout: 5000 });
    expect(p.textContent).toContain("96 labels so far, 0.80 of the 120 a fixed overlap of 3 would take.");
    expect(p.textContent).toContain("96.2 % over 30 items");
  });

  it("shows the loss accounting with a chart per figure and the tables beside them", async () => {
    renderInProject(<ReportTab />, project, { "GET /api/v1/projects/p1/report": () => json(200, datasetReport()) });
    const head = await screen.findByRole("heading", { name: "Dataset report" }, { timeout: 5000 });
    const facts = head.closest("header")!.textContent!;
    expect(facts).toContain("Items in the dataset (gold and calibration excluded)40");
    expect(facts).toContain("15.0 %");
    expect(facts).toContain("43 s");
    await chartsDrawn();
    for (const id of ["chart-stages", "chart-provenance", "chart-dropped", "chart-criteria", "chart-labels-per-item", "chart-reviews", "chart-adjudication", "chart-annotators", "chart-score-preference"]) {
      expect(screen.getByTestId(id).querySelector("svg"), id).not.toBeNull();
    }
    expect(screen.getByText(/33.3 % of the reviewed ones were refused/)).toBeTruthy();
    expect(screen.getByText("6 dropped, 15.0 % of the items.")).toBeTruthy();
    const adj = within(screen.getByRole("table", { name: "Adjudication per question" })).getByRole("row", { name: /Which is better/ });
    expect(adj.textContent).toBe("Which is better?141240.0 %");
    const bo = within(screen.getByRole("table", { name: "Annotators" })).getByRole("row", { name: /Bo/ });
    expect(bo.textContent).toBe("Bo46—");
    // the verdicts read as words
    expect(screen.getByTestId("chart-reviews").textContent).toContain("Corrected");
  });

  it("leaves out the criteria chart when no criteria were written", async () => {
    renderInProject(<ReportTab />, project, {
      "GET /api/v1/projects/p1/report": () => json(200, datasetReport({ criteria: { written: 0, pending: 0, valid: 0, too_vague: 0, too_specific: 0, loss_share: null } })),
    });
    await screen.findByTestId("chart-stages", {}, { timeout: 5000 });
    expect(screen.queryByTestId("chart-criteria")).toBeNull();
  });

  it("says when it is computing for the first time", async () => {
    const r = datasetReport({ status: "computing", computed_at: null, items: 0 });
    renderInProject(<ReportTab />, project, { "GET /api/v1/projects/p1/report": () => json(200, r) });
    expect(await screen.findByText("Computing the report for the first time…", {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText("Computing newer figures…")).toBeTruthy();
  });
});
