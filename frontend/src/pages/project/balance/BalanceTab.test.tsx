import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import type { BalanceReport } from "../../../api/insight";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { BalanceTab } from "./BalanceTab";
import { chartsDrawn } from "../../../test/charts";

const lead = { id: "p1", name: "D3", my_roles: ["lead"] } as ProjectDetail;
const viewer = { id: "p1", name: "D3", my_roles: ["viewer"] } as ProjectDetail;

/** Three dimensions, 12 items: clarity and noise meet ρ = 0.95, pace does not; bins 0 and 1 are short. */
export const balanceReport = (over: Partial<BalanceReport> = {}): BalanceReport => ({
  status: "ready",
  computed_at: "2026-12-01T07:00:00Z",
  targets: { ratio: 0.95, spread: 2, by: "meta.generator" },
  readiness: { ready: false, ratio_met: false, spread_met: false, need_more_no: ["pace"], bins_need_items: [0, 1] },
  items: 12,
  languages: [],
  binary: {
    dimensions: [
      { key: "clarity", label: "Clear speech", yes: 6, no: 6, open: 0, ratio: 1, meets_ratio: true, needs_no: 0 },
      { key: "noise", label: "No background noise", yes: 5, no: 7, open: 0, ratio: 1.4, meets_ratio: true, needs_no: 0 },
      { key: "pace", label: "Natural pace", yes: 8, no: 3, open: 1, ratio: 0.375, meets_ratio: false, needs_no: 5 },
    ],
    histogram: [
      { score: 0, count: 1, needs: 3 },
      { score: 1, count: 2, needs: 2 },
      { score: 2, count: 4, needs: 0 },
      { score: 3, count: 5, needs: 0 },
    ],
    spread: 4,
    min_ratio: 0.375,
    correlations: [
      { a: "clarity", b: "noise", r: 0.72, flagged: true },
      { a: "clarity", b: "pace", r: 0.1, flagged: false },
      { a: "noise", b: "pace", r: null, flagged: false },
    ],
  },
  distributions: [
    {
      key: "mos",
      label: "Overall quality",
      kind: "likert",
      values: [
        { value: "1", count: 2 },
        { value: "3", count: 6 },
        { value: "5", count: 4 },
      ],
    },
  ],
  meta: [
    { key: "generator", values: [{ value: "g1", count: 7 }, { value: "g2", count: 5 }], distinct: 2, truncated: false },
    { key: "seed_id", values: [], distinct: 250, truncated: true },
  ],
  positions: [],
  ...over,
});

// note: the first chart loads the chart chunk lazily, which takes seconds on a busy machine
describe("BalanceTab", { timeout: 20000 }, () => {
  it("shows a pairwise question's labels by output chosen and by position shown", async () => {
    const positions = [
      {
        key: "preference",
        label: "Which output is better?",
        labels: 20,
        outputs: [
          { value: "A" as const, count: 9, share: 0.45 },
          { value: "B" as const, count: 9, share: 0.45 },
          { value: "tie" as const, count: 2, share: 0.1 },
        ],
        positions: [
          { value: "A" as const, count: 14, share: 0.7 },
          { value: "B" as const, count: 4, share: 0.2 },
          { value: "tie" as const, count: 2, share: 0.1 },
        ],
      },
    ];
    renderInProject(<BalanceTab />, viewer, {
      "GET /api/v1/projects/p1/balance": () => json(200, balanceReport({ binary: null, targets: {}, distributions: [], positions })),
    });
    const note = await screen.findByTestId("position-bias-preference", {}, { timeout: 5000 });
    await chartsDrawn();
    expect(note.textContent).toContain("20 labels. Outputs chosen: A 45.0 %, B 45.0 %, tie 10.0 %. Positions shown: first 70.0 %, second 20.0 %, tie 10.0 %.");
    expect(screen.getByTestId("chart-positions-preference").querySelector("svg")?.textContent).toContain("By position shown");
  });

  it("says not ready, which questions need more No items and which bins need items, with the charts", async () => {
    renderInProject(<BalanceTab />, viewer, { "GET /api/v1/projects/p1/balance": () => json(200, balanceReport()) });
    const verdict = await screen.findByTestId("readiness-verdict", {}, { timeout: 5000 });
    await chartsDrawn();
    expect(verdict.textContent).toBe("Not ready");
    const needNo = screen.getByRole("list", { name: "Questions that need more No items" });
    expect(needNo.textContent).toBe("Natural pace: 5 more No");
    const bins = within(screen.getByRole("list", { name: "Score bins that need items" })).getAllByRole("listitem");
    expect(bins.map((b) => b.textContent)).toEqual(["score 0: 3 more", "score 1: 2 more"]);
    expect(screen.getByTestId("readiness-spread").textContent).toContain("spread 4 is not under 2");
    // the dimension table marks each question against ρ
    const table = screen.getByRole("table", { name: "Binary questions" });
    expect(within(table).getByRole("row", { name: /Natural pace/ }).textContent).toContain("5 more No");
    expect(within(table).getByRole("row", { name: /Clear speech/ }).textContent).toContain("Met");
    expect(screen.getByTestId("flagged-pairs").textContent).toBe("Clear speech × No background noise (0.72)");
    for (const id of ["chart-yes-no", "chart-ratio", "chart-histogram", "chart-correlation", "chart-dist-mos", "chart-meta"]) {
      expect(screen.getByTestId(id).querySelector("svg"), id).not.toBeNull();
    }
    // counts by the target's key first; a truncated key says so
    expect(within(screen.getByRole("table", { name: "Counts by generator" })).getByRole("row", { name: /g1/ }).textContent).toContain("58.3 %");
    fireEvent.change(screen.getByLabelText("Key"), { target: { value: "seed_id" } });
    expect(screen.getByTestId("meta-truncated").textContent).toContain("250 distinct values");
    // a viewer gets no target form
    expect(screen.queryByRole("form", { name: "Balance targets" })).toBeNull();
  });

  it("says ready only when the server does", async () => {
    const r = balanceReport({ readiness: { ready: true, ratio_met: true, spread_met: true, need_more_no: [], bins_need_items: [] } });
    renderInProject(<BalanceTab />, viewer, { "GET /api/v1/projects/p1/balance": () => json(200, r) });
    expect((await screen.findByTestId("readiness-verdict", {}, { timeout: 5000 })).textContent).toBe("Ready");
    expect(screen.getByTestId("readiness-ratio").textContent).toContain("every question above 0.95");
  });

  it("asks for both targets when they are not set", async () => {
    const r = balanceReport({ targets: {}, readiness: { ready: false, ratio_met: null, spread_met: null, need_more_no: [], bins_need_items: [] } });
    renderInProject(<BalanceTab />, viewer, { "GET /api/v1/projects/p1/balance": () => json(200, r) });
    const card = await screen.findByTestId("readiness", {}, { timeout: 5000 });
    expect(card.textContent).toContain("Readiness needs both a ratio target ρ and a spread target δ.");
    expect(screen.getByTestId("readiness-ratio").textContent).toContain("no target set");
  });

  it("saves the lead's targets with PATCH and reads the balance again", async () => {
    let targets: BalanceReport["targets"] = {};
    const { calls } = renderInProject(<BalanceTab />, lead, {
      "GET /api/v1/projects/p1/balance": () => json(200, balanceReport({ targets })),
      "PATCH /api/v1/projects/p1": (req) => {
        targets = (req.body as { balance: BalanceReport["targets"] }).balance;
        return json(200, { ...lead, balance: targets });
      },
    });
    const form = await screen.findByRole("form", { name: "Balance targets" }, { timeout: 5000 });
    fireEvent.change(within(form).getByLabelText("No/Yes ratio ρ"), { target: { value: "0.9" } });
    fireEvent.change(within(form).getByLabelText("Spread δ"), { target: { value: "3" } });
    fireEvent.change(within(form).getByLabelText("Count by"), { target: { value: "meta.generator" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save targets" }));
    await screen.findByText("Targets saved.");
    expect(targets).toEqual({ ratio: 0.9, spread: 3, by: "meta.generator" });
    await waitFor(() => expect(calls.filter((c) => c.method === "GET" && c.path.endsWith("/balance")).length).toBe(2));
  });

  it("names the refused field", async () => {
    renderInProject(<BalanceTab />, lead, {
      "GET /api/v1/projects/p1/balance": () => json(200, balanceReport()),
      "PATCH /api/v1/projects/p1": () =>
        json(422, { error: { code: "validation_failed", message: "invalid balance targets", details: { "balance.ratio": { code: "out_of_range", message: "must be above 0" } } } }),
    });
    const form = await screen.findByRole("form", { name: "Balance targets" }, { timeout: 5000 });
    fireEvent.change(within(form).getByLabelText("No/Yes ratio ρ"), { target: { value: "0" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save targets" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("balance.ratio");
  });

  it("shows the computing state while figures are missing", async () => {
    const r = balanceReport({ status: "computing", computed_at: null, items: 0, binary: null, distributions: [], meta: [], targets: {} });
    r.readiness = { ready: false, ratio_met: null, spread_met: null, need_more_no: [], bins_need_items: [] };
    renderInProject(<BalanceTab />, viewer, { "GET /api/v1/projects/p1/balance": () => json(200, r) });
    expect(await screen.findByText("Computing newer figures…", {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText("Computing the balance for the first time…")).toBeTruthy();
    expect(screen.getByTestId("readiness").textContent).toContain("Readiness needs binary questions");
  });
});
