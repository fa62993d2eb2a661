import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import type { AgreementReport } from "../../../api/quality";
import { drawnChart } from "../../../charts/testing";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { AgreementTab } from "./AgreementTab";

const project = { id: "p1", name: "Pilot", my_roles: ["viewer"] } as ProjectDetail;

export const agreementReport = (over: Partial<AgreementReport> = {}): AgreementReport => ({
  status: "ready",
  computed_at: "2026-12-01T07:00:00Z",
  schema_version: 2,
  labels: 1234,
  questions: [
    {
      key: "realistic",
      label: "Is the image realistic?",
      type: "binary",
      level: "nominal",
      n_units: 40,
      n_ratings: 120,
      alpha: 0.61,
      alpha_ci: [0.48, 0.72],
      percent_agreement: 0.83,
      fleiss_kappa: 0.6,
      gwet_ac1: 0.71,
      exact: null,
      within_one: null,
      mad: null,
      raw: { alpha: 0.55, percent_agreement: 0.8 },
    },
    {
      key: "physical",
      label: "Physical adherence",
      type: "likert",
      level: "ordinal",
      n_units: 40,
      n_ratings: 120,
      alpha: 0.42,
      alpha_ci: [0.3, 0.55],
      percent_agreement: 0.5,
      fleiss_kappa: null,
      gwet_ac1: null,
      exact: 0.529,
      within_one: 0.921,
      mad: 0.58,
      raw: null,
    },
  ],
  macro: { alpha: 0.515, percent_agreement: 0.665 },
  matrix: {
    annotators: [
      { user_id: "a", name: "Ann" },
      { user_id: "b", name: "Bo" },
      { user_id: "c", name: "Cy" },
    ],
    values: [
      [null, 0.8, 0.7],
      [0.8, null, null],
      [0.7, null, null],
    ],
  },
  ...over,
});

describe("AgreementTab", () => {
  it("shows each question's figures at its level, the macro averages, when they were computed and the charts", async () => {
    const { calls } = renderInProject(<AgreementTab />, project, {
      "GET /api/v1/projects/p1/agreement": () => json(200, agreementReport()),
    });
    const nominal = await screen.findByRole("table", { name: "Nominal questions" }, { timeout: 5000 });
    const row = within(nominal).getByRole("row", { name: /Is the image realistic/ });
    expect(row.textContent).toContain("0.61");
    expect(row.textContent).toContain("[0.48, 0.72]");
    expect(row.textContent).toContain("83.0 %");
    expect(row.textContent).toContain("0.71");
    expect(row.textContent).toContain("0.55 / 80.0 %");
    const ordinal = screen.getByRole("table", { name: "Ordinal questions" });
    const likert = within(ordinal).getByRole("row", { name: /Physical adherence/ });
    expect(likert.textContent).toContain("52.9 %");
    expect(likert.textContent).toContain("92.1 %");
    expect(likert.textContent).toContain("0.58");
    expect(screen.getByText("0.52")).toBeTruthy();
    expect(screen.getByTestId("agreement-computed").textContent).toMatch(/from 1,234 labels \(schema version 2\)/);
    await drawnChart(/alpha per question/);
    expect((await drawnChart(/heatmap/)).textContent).toContain("Bo");
    expect(screen.queryByRole("status")).toBeNull();
    expect(calls[0].path).toBe("/api/v1/projects/p1/agreement");
  }, 20000);

  it("says the figures are being computed and asks again until they are ready", async () => {
    renderInProject(<AgreementTab />, project, {
      "GET /api/v1/projects/p1/agreement": [
        () => json(200, agreementReport({ status: "computing", computed_at: null, labels: 0, questions: [], matrix: { annotators: [], values: [] } })),
        () => json(200, agreementReport()),
      ],
    });
    expect(await screen.findByText("Computing agreement for the first time…")).toBeTruthy();
    expect(await screen.findByRole("table", { name: "Nominal questions" }, { timeout: 5000 })).toBeTruthy();
  });

  it("keeps showing stale figures while newer ones are computed", async () => {
    renderInProject(<AgreementTab />, project, {
      "GET /api/v1/projects/p1/agreement": () => json(200, agreementReport({ status: "computing" })),
    });
    expect((await screen.findByText("Computing newer figures…", {}, { timeout: 5000 })).getAttribute("role")).toBe("status");
    expect(screen.getByRole("table", { name: "Ordinal questions" })).toBeTruthy();
  });
});
