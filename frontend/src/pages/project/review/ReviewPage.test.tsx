import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Claim, ProjectDetail } from "../../../api/workflowTypes";
import type { Question, Schema } from "../../../api";
import { apiError, json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { reviewComments } from "./LabelAnswers";
import { ReviewPage } from "./ReviewPage";

const schema: Schema = {
  version: 1,
  inputs: [{ name: "prompt", type: "text", label: "Prompt" }],
  questions: [
    { key: "fidelity", kind: "binary", label: "Prompt fidelity", required: true },
    { key: "count", kind: "binary", label: "Count correct", required: true },
  ],
};
const project = { id: "p1", name: "Pilot", my_roles: ["reviewer"], schema, workflow: { review: "cross" } } as ProjectDetail;
const claim: Claim = {
  assignment: { id: "r1", stage: "review", lease_expires_at: "2030-01-01T00:00:00Z", version: 1, schema_version: 1, draft_source: null },
  item: { role: "reviewer", schema, item: { external_id: "item-1", inputs: { prompt: "Two cats" } } },
  draft: null,
  context: { label: { answers: { fidelity: "yes", count: "no" } } },
};
const ok = { assignment: { id: "r1", stage: "review", status: "submitted" }, item_stage: "done", replayed: false };
const noProgress = () => json(200, { stages: [] });

function renderReview(submit: Parameters<typeof renderInProject>[2][string]) {
  return renderInProject(<ReviewPage />, project, {
    "GET /api/v1/projects/p1/me/progress": noProgress,
    "POST /api/v1/projects/p1/queue/next": [() => json(200, claim), () => new Response(null, { status: 204 })],
    "POST /api/v1/projects/p1/assignments/r1/submit": submit,
  });
}

/** Opens the comment box of a question's row and types into it. */
async function commentOn(name: string, text: string) {
  const table = await screen.findByRole("table", { name: "The label under review" });
  const row = within(table).getByText(name).closest("tr")!;
  fireEvent.click(within(row).getByRole("button", { name: "Comment" }));
  const box = within(row).getByRole("textbox", { name: `Comment on ${name}` });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.blur(box);
}

describe("reviewComments", () => {
  const qs = schema.questions as Question[];
  it("keeps trimmed, non-empty comments of known questions only", () => {
    expect(reviewComments({ fidelity: "  off  ", count: " ", gone: "stale key" }, qs)).toEqual({ fidelity: "off" });
  });
});

describe("ReviewPage", () => {
  it("opens and closes the shortcut legend with ?", async () => {
    renderReview(() => json(200, ok));
    await screen.findByRole("table", { name: "The label under review" });
    fireEvent.keyDown(document.body, { key: "?", shiftKey: true });
    const legend = screen.getByRole("dialog", { name: "Keyboard shortcuts" });
    expect(legend.textContent).toContain("Approve the label");
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(screen.queryByRole("dialog", { name: "Keyboard shortcuts" })).toBeNull();
  });

  it("sends per-question comments as a map and the overall note as comment", async () => {
    const { calls } = renderReview(() => json(200, ok));
    await commentOn("Count correct", "  There are two cats, not one. ");
    fireEvent.change(screen.getByLabelText("Comment (optional)"), { target: { value: "Mostly right." } });
    fireEvent.click(screen.getByRole("button", { name: /Approve/ }));
    await screen.findByTestId("queue-empty");
    const submit = calls.find((c) => c.path === "/api/v1/projects/p1/assignments/r1/submit");
    expect(submit?.body).toEqual({ verdict: "approve", comment: "Mostly right.", comments: { count: "There are two cats, not one." } });
  });

  it("accepts a question comment as the reason for a reject and leaves out an empty overall note", async () => {
    const { calls } = renderReview(() => json(200, ok));
    await commentOn("Prompt fidelity", "The prompt asks for two cats.");
    fireEvent.click(screen.getByRole("button", { name: /Reject/ }));
    await screen.findByTestId("queue-empty");
    const submit = calls.find((c) => c.path === "/api/v1/projects/p1/assignments/r1/submit");
    expect(submit?.body).toEqual({ verdict: "reject", comments: { fidelity: "The prompt asks for two cats." } });
  });

  it("asks for a reason before rejecting without any comment", async () => {
    const { calls } = renderReview(() => json(200, ok));
    await screen.findByRole("table", { name: "The label under review" });
    fireEvent.click(screen.getByRole("button", { name: /Reject/ }));
    expect(screen.getByLabelText("Why is this label rejected? (required)")).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith("/submit"))).toBe(false);
  });

  it("shows the server's refusal of a comment", async () => {
    renderReview(() => apiError(422, "validation_failed", "invalid submission", { "comments.count": { code: "unknown_question", message: "no question count to comment on" } }));
    await commentOn("Count correct", "Wrong.");
    fireEvent.click(screen.getByRole("button", { name: /Approve/ }));
    const field = await screen.findByText("comments.count");
    expect(field.closest("li")?.textContent).toContain("no question count to comment on");
    expect(screen.getByRole("table", { name: "The label under review" })).toBeTruthy();
  });
});

describe("ReviewPage progress", () => {
  it("shows the reviewer's own queue from me/progress, not the project's stats", async () => {
    const { calls } = renderInProject(<ReviewPage />, { ...project, my_roles: ["reviewer", "lead"] } as ProjectDetail, {
      "GET /api/v1/projects/p1/me/progress": () =>
        json(200, { stages: [{ stage: "review", done_today: 2, done_total: 9, available: 4, available_capped: false }] }),
      "POST /api/v1/projects/p1/queue/next": (c) =>
        (c.body as { prefetch?: boolean }).prefetch
          ? json(200, { ...claim, assignment: { ...claim.assignment, id: "r2" } })
          : json(200, claim),
    });
    await screen.findByText("item-1");
    // Four more the server could give, plus the one held ahead.
    await waitFor(() => expect(screen.getByTestId("progress-left").textContent).toBe("5 left"));
    expect(screen.getByTestId("progress-done").textContent).toBe("2 / 9");
    expect(calls.some((c) => c.path.endsWith("/stats"))).toBe(false);
    expect(screen.queryByText("Waiting for review")).toBeNull();
  });
});
