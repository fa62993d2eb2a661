import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { Claim, ProjectDetail } from "../../../api/workflowTypes";
import type { Schema } from "../../../api";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { AdjudicatePage } from "./AdjudicatePage";

const schema: Schema = {
  version: 1,
  inputs: [{ name: "prompt", type: "text", label: "Prompt" }],
  questions: [{ key: "ok", kind: "binary", label: "Looks right", required: true }],
};
const project = { id: "p1", name: "Pilot", my_roles: ["adjudicator", "lead"], schema, workflow: {} } as ProjectDetail;
const claim = (id: string): Claim => ({
  assignment: { id, stage: "adjudicate", lease_expires_at: "2030-01-01T00:00:00Z", version: 0, schema_version: 1, draft_source: null },
  item: { role: "adjudicator", schema, item: { external_id: `item-${id}`, inputs: { prompt: "Two cats" } } },
  draft: null,
  context: {
    labels: [
      {
        assignment_id: "l1",
        by: "Annotator 1",
        answers: { ok: "no" },
        original: { ok: "yes" },
        counted: true,
        review: { by: "Reviewer 1", verdict: "correct", comments: { ok: "Only one cat is visible." }, answers: { ok: "no" } },
      },
      { assignment_id: "l2", by: "Annotator 2", answers: { ok: "yes" }, original: { ok: "yes" }, counted: true },
    ],
    disagreements: [{ question: "ok", resolved: false, values: ["no", "yes"] }],
    consensus: { agreed: false, provenance: "", questions: [{ question: "ok", state: "no_consensus" }] },
  },
});

describe("AdjudicatePage", () => {
  it("shows the adjudicator's own queue from me/progress and the reviewer's note on its question", async () => {
    const { calls } = renderInProject(<AdjudicatePage />, project, {
      "GET /api/v1/projects/p1/me/progress": () =>
        json(200, { stages: [{ stage: "adjudicate", done_today: 1, done_total: 3, available: 1000, available_capped: true }] }),
      "POST /api/v1/projects/p1/queue/next": (c) => json(200, claim((c.body as { prefetch?: boolean }).prefetch ? "j2" : "j1")),
    });
    const table = await screen.findByRole("table", { name: "Labels per question" });
    expect(table.querySelector('tr[data-question="ok"]')?.textContent).toContain("Reviewer 1: Only one cat is visible.");
    await waitFor(() => expect(screen.getByTestId("progress-left").textContent).toBe("1000+ left"));
    expect(screen.getByTestId("progress-done").textContent).toBe("1 / 3");
    expect(calls.some((c) => c.path.endsWith("/stats"))).toBe(false);
  });

  it("opens and closes the shortcut legend with ?", async () => {
    renderInProject(<AdjudicatePage />, project, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, { stages: [] }),
      "POST /api/v1/projects/p1/queue/next": (c) => json(200, claim((c.body as { prefetch?: boolean }).prefetch ? "j2" : "j1")),
    });
    await screen.findByRole("table", { name: "Labels per question" });
    fireEvent.keyDown(document.body, { key: "?", shiftKey: true });
    const legend = screen.getByRole("dialog", { name: "Keyboard shortcuts" }).textContent;
    expect(legend).toContain("Next question where the columns differ");
    expect(legend).toContain("Take every answer of Reviewer 1 (correction of Annotator 1), free text included");
    fireEvent.keyDown(document.body, { key: "?", shiftKey: true });
    expect(screen.queryByRole("dialog", { name: "Keyboard shortcuts" })).toBeNull();
  });
});
