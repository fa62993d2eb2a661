import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import type { QualityAnnotator, QualityReport } from "../../../api/quality";
import { drawnChart } from "../../../charts/testing";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { QualityTab } from "./QualityTab";

const project = {
  id: "p1",
  name: "Pilot",
  my_roles: ["lead"],
  workflow: { gold_min_accuracy: 0.8 },
  schema: { version: 1, inputs: [], questions: [{ key: "realistic", kind: "binary", label: "Is it realistic?", short_label: "Realistic" }] },
} as unknown as ProjectDetail;

const annotator = (over: Partial<QualityAnnotator>): QualityAnnotator => ({
  user_id: "a",
  name: "Ann",
  labels: 120,
  median_seconds: 14.2,
  p10_seconds: 4.1,
  rushed_share: 0.02,
  peer_agreement: 0.81,
  truth_agreement: 0.9,
  gold: { answered: 10, correct: 9, accuracy: 0.9, window_answered: 10, window_accuracy: 0.9 },
  paused: false,
  yes_rate: { realistic: 0.55 },
  drafts: { labels: 0, agreement: null, unchanged_share: null },
  reliability: { ratings: 240, accuracy: 0.91, low: 0.87, high: 0.94, questions: { realistic: { ratings: 120, accuracy: 0.9, low: 0.83, high: 0.94 } } },
  flags: [],
  ...over,
});

const report = (paused: boolean): QualityReport => ({
  computed_at: "2026-12-01T07:00:00Z",
  annotators: [
    annotator({}),
    annotator({
      user_id: "b",
      name: "Bo",
      median_seconds: 2.1,
      p10_seconds: 1.2,
      rushed_share: 0.4,
      gold: { answered: 10, correct: 5, accuracy: 0.5, window_answered: 10, window_accuracy: 0.5 },
      paused,
      yes_rate: { realistic: 0.98 },
      reliability: { ratings: 240, accuracy: 0.52, low: 0.46, high: 0.58, questions: {} },
      flags: [
        { code: "low_reliability", reason: "estimated accuracy 0.52 (95 % interval 0.46–0.58) over 240 answers, below 0.7" },
        { code: "low_gold_accuracy", reason: "gold accuracy 50 % over the last 10 gold answers, below 80 %" },
        { code: "rubber_stamping", reason: "answered Yes to realistic in 98 % of 120 labels" },
      ],
    }),
  ],
});

describe("QualityTab", () => {
  it("lists each annotator's figures and flags with reasons, draws gold accuracy and Yes rates, and lifts a pause", async () => {
    const { calls } = renderInProject(<QualityTab />, project, {
      "GET /api/v1/projects/p1/quality": [() => json(200, report(true)), () => json(200, report(false))],
      "PUT /api/v1/projects/p1/members/b": () => json(200, { status: "updated", user_id: "b", roles: ["annotator"], paused: false }),
    });
    const table = await screen.findByRole("table", { name: "Per annotator" }, { timeout: 5000 });
    const bo = within(table).getByRole("row", { name: /Bo/ });
    expect(bo.textContent).toContain("2.1 s / 1.2 s");
    expect(bo.textContent).toContain("40.0 %");
    expect(bo.textContent).toContain("5/10 · 50.0 %");
    expect(bo.textContent).toContain("Low reliability, Low gold accuracy, Rubber-stamping");
    expect(bo.textContent).toContain("52.0 % (46.0 %–58.0 %)");
    const flagged = screen.getByTestId("flagged-b");
    expect(flagged.textContent).toContain("answered Yes to realistic in 98 % of 120 labels");
    expect(screen.queryByTestId("flagged-a")).toBeNull();
    expect((await drawnChart(/Gold accuracy per annotator/)).textContent).toContain("0.50");
    const reliability = (await drawnChart(/Estimated accuracy per annotator/)).textContent ?? "";
    expect(reliability).toContain("0.91");
    expect(reliability).toContain("0.52");
    expect((await drawnChart(/Yes rate per binary question/)).textContent).toContain("Realistic");
    fireEvent.click(within(flagged).getByRole("button", { name: "Lift pause" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ paused: false });
    await waitFor(() => expect(within(screen.getByTestId("flagged-b")).queryByRole("button", { name: "Lift pause" })).toBeNull());
  }, 20000);

  it("says so when nobody has labeled yet", async () => {
    renderInProject(<QualityTab />, project, {
      "GET /api/v1/projects/p1/quality": () => json(200, { computed_at: "2026-12-01T07:00:00Z", annotators: [] }),
    });
    expect(await screen.findByText("No labels yet")).toBeTruthy();
  });
});
