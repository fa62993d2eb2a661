import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { BackgroundImport, ImportReport, ProjectDetail } from "../../../api/workflowTypes";
import type { Schema } from "../../../api/taskSchema";
import { json } from "../../../test/fakeApi";
import { FakeXhr } from "../../../test/fakeXhr";
import { renderInProject } from "../testing";
import { PredictionsImport } from "./PredictionsImport";
import { predictionExample } from "./predictionFormat";

const schema = {
  inputs: [{ key: "prompt", type: "text" }],
  questions: [
    { key: "adherence", kind: "likert", label: "Physical adherence", min: 1, max: 4 },
    { key: "count_correct", kind: "binary", label: "Count correct", allow_na: true },
    { key: "better", kind: "pairwise", label: "Better", allow_tie: true, candidates: "pair" },
    { key: "notes", kind: "criteria", label: "Criteria" },
  ],
} as unknown as Schema;
const project = { id: "p1", name: "Judges", my_roles: ["lead"], schema } as unknown as ProjectDetail;

const report: ImportReport = {
  lines: 3,
  imported: 1,
  updated: 0,
  unchanged: 0,
  errors: [
    { line: 2, error: 'no item with external_id "item-9"' },
    { line: 3, error: "invalid item", details: { adherence: { code: "out_of_range", message: "must be between 1 and 4" } } },
  ],
};
const job = (over: Partial<BackgroundImport>): BackgroundImport => ({
  id: "im1",
  kind: "predictions",
  status: "queued",
  bytes_total: 300,
  bytes_done: 0,
  lines_done: 0,
  percent: 0,
  report: null,
  error: null,
  created_at: "2026-12-06T10:00:00Z",
  updated_at: "2026-12-06T10:00:00Z",
  ...over,
});

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

describe("predictionExample", () => {
  it("answers every question a model can answer, with a value of its kind", () => {
    expect(predictionExample(schema)).toEqual({ external_id: "item-0001", model: "judge-a", answers: { adherence: 4, count_correct: "yes", better: "A" } });
    expect(predictionExample(null).answers).toEqual({});
  });
});

describe("PredictionsImport", () => {
  it("shows the expected line with the project's question keys", () => {
    renderInProject(<PredictionsImport project={project} />, project, {});
    expect(screen.getByTestId("predictions-example").textContent).toBe(
      '{"external_id":"item-0001","model":"judge-a","answers":{"adherence":4,"count_correct":"yes","better":"A"}}',
    );
    fireEvent.click(screen.getByRole("button", { name: /answer of each question/ }));
    const table = screen.getByRole("table", { name: "Answers a prediction may give" });
    expect(table.textContent).toContain("an integer 1–4");
    expect(table.textContent).toContain('"yes" or "no" or "na"');
    expect(table.textContent).toContain('"A", "B" or "tie"');
    expect(table.textContent).not.toContain("notes");
  });

  it("uploads to the predictions import with progress and reports each refused line by field", async () => {
    renderInProject(<PredictionsImport project={project} pollMs={5} />, project, {
      "GET /api/v1/projects/p1/imports": () => json(200, { items: [] }),
      "GET /api/v1/projects/p1/imports/im1": () => json(200, job({ status: "done", percent: 100, lines_done: 3, report })),
    });
    const file = new File(['{"external_id":"item-1","model":"m","answers":{}}\n'], "judge-a.jsonl", { type: "application/x-ndjson" });
    fireEvent.change(screen.getByLabelText("Predictions file"), { target: { files: [file] } });
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const xhr = FakeXhr.last!;
    expect(xhr.url).toBe("/api/v1/projects/p1/predictions?async=true&filename=judge-a.jsonl");
    act(() => xhr.progress(30, 100));
    expect(screen.getByRole("progressbar", { name: "Upload" }).getAttribute("aria-valuenow")).toBe("30");
    act(() => xhr.respond(202, job({}), { Location: "/api/v1/projects/p1/imports/im1" }));

    const rep = await screen.findByTestId("import-report");
    expect(within(rep).getByRole("status").textContent).toBe("3 lines: 1 predictions accepted, 2 with errors.");
    const rows = within(within(rep).getByRole("table", { name: "Lines with errors" })).getAllByRole("row");
    expect(rows.map((r) => Array.from(r.querySelectorAll("th,td")).map((c) => c.textContent))).toEqual([
      ["Line", "Field", "Problem", "How to fix it"],
      ["2", "external_id", 'no item with external_id "item-9"', "Import the item first (Items tab), or correct its external_id."],
      ["3", "adherence", "must be between 1 and 4out_of_range", "—"],
    ]);
  });
});
