import { describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import type { ItemDetailResponse, ItemRecord, ProjectDetail } from "../../../api/workflowTypes";
import type { Schema } from "../../../api";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { ItemsTab } from "./ItemsTab";
import { commentsByLabel, duration } from "./ItemDetail";

const schema: Schema = {
  version: 1,
  inputs: [
    { name: "prompt", type: "text", label: "Prompt" },
    { name: "image", type: "image", label: "Generated image" },
    { name: "generator", type: "text", hidden: true },
  ],
  questions: [
    { key: "fidelity", kind: "binary", label: "Prompt fidelity", required: true },
    { key: "count", kind: "binary", label: "Count correct", required: true },
  ],
};
const project = { id: "p1", name: "Pilot", my_roles: ["lead"], schema } as ProjectDetail;

const item: ItemRecord = {
  id: "i1",
  project_id: "p1",
  external_id: "cats-01",
  stage: "done",
  spot_check: false,
  gt_revision: 2,
  version: 4,
  created_at: "2026-11-29T09:00:00Z",
  updated_at: "2026-11-29T12:00:00Z",
  inputs: { prompt: "Two cats on a sofa", image: "media/cats.png", generator: "model-x" },
  meta: { batch: 7 },
  annotations: [
    { id: "l1", user_id: "u1", stage: "label", status: "submitted", answers: { fidelity: "yes", count: "no" }, review_status: "corrected", corrected_answers: { fidelity: "yes", count: "yes" }, time_spent_ms: 65_000, submitted_at: "2026-11-29T10:00:00Z" },
    { id: "l2", user_id: "u2", stage: "label", status: "submitted", answers: { fidelity: "no", count: "yes" }, time_spent_ms: 12_000, submitted_at: "2026-11-29T10:05:00Z" },
  ],
  reviews: [
    { id: "r1", user_id: "u3", stage: "review", status: "submitted", target_id: "l1", verdict: "correct", comment: "One fix.", comments: { count: "There are two cats." }, time_spent_ms: 9_000, submitted_at: "2026-11-29T11:00:00Z" },
  ],
  other_work: [{ id: "j1", user_id: "u4", stage: "adjudicate", status: "submitted", rationale: "Both cats are visible.", time_spent_ms: 30_000 }],
  ground_truth: { answers: { fidelity: "yes", count: "yes" }, revision: 2, provenance: { kind: "adjudicated", by: "u4", rationale: "Both cats are visible.", at: "2026-11-29T12:00:00Z" } },
};
const detail: ItemDetailResponse = {
  item,
  ground_truth_history: [
    { revision: 1, answers: { fidelity: "yes", count: "no" }, provenance: "majority", created_at: "2026-11-29T11:30:00Z" },
    { revision: 2, answers: { fidelity: "yes", count: "yes" }, provenance: "adjudicated", decided_by: "u4", rationale: "Both cats are visible.", created_at: "2026-11-29T12:00:00Z" },
  ],
  criteria: [{ id: "c1", project_id: "p1", item_id: "i1", assignment_id: "k1", text: "Exactly two cats are visible", status: "valid", author_id: "u2", created_at: "2026-11-29T09:00:00Z", updated_at: "2026-11-29T09:30:00Z" }],
  predictions: [{ item_id: "i1", model: "judge-a", answers: { fidelity: "no", count: "yes" }, created_at: "2026-11-29T08:00:00Z" }],
  family: null,
};
const members = [
  { user_id: "u1", email: "ana@x.test", name: "Ana", roles: ["annotator"] },
  { user_id: "u2", email: "ben@x.test", name: "Ben", roles: ["annotator"] },
  { user_id: "u3", email: "rui@x.test", name: "Rui", roles: ["reviewer"] },
  { user_id: "u4", email: "ada@x.test", name: "Ada", roles: ["adjudicator"] },
];

function renderItems() {
  return renderInProject(<ItemsTab />, project, {
    "GET /api/v1/projects/p1/items": () => json(200, { items: [item], next_cursor: "" }),
    "GET /api/v1/projects/p1/items/i1": () => json(200, detail),
    "GET /api/v1/projects/p1/members": () => json(200, members),
    "GET /api/v1/projects/p1/imports": () => json(200, { items: [] }),
  });
}

describe("item detail", () => {
  it("opens from the list with inputs, labels, reviews, predictions, criteria and ground-truth history", async () => {
    const { calls } = renderItems();
    fireEvent.click(await screen.findByText("cats-01"));
    const view = await screen.findByTestId("item-detail");
    await within(view).findByRole("table", { name: "Answers by question" });
    expect(calls.some((c) => c.path === "/api/v1/projects/p1/items/i1")).toBe(true);

    // Inputs through the media viewers, hidden inputs and meta marked.
    const img = view.querySelector<HTMLImageElement>('[data-input="image"] img');
    expect(img?.getAttribute("src")).toBe("/template-media/media/cats.png");
    expect(within(view).getByText("Two cats on a sofa")).toBeTruthy();
    expect(view.querySelector('[data-input="generator"]')?.textContent).toContain("Hidden from annotators");
    expect(view.querySelector('[data-input="meta"]')?.textContent).toContain('"batch": 7');

    // Answers by question: each label (corrected, with the reviewer's comment), the model, the ground truth.
    const grid = within(view).getByRole("table", { name: "Answers by question" });
    const head = grid.querySelector("thead")!.textContent!;
    expect(head).toContain("Ana");
    expect(head).toContain("Ben");
    expect(head).toContain("Model judge-a");
    const count = grid.querySelector('tr[data-question="count"]')!;
    expect(count.textContent).toContain("(was No)");
    expect(within(count as HTMLElement).getByTestId("question-comment").textContent).toBe("Rui: There are two cats.");
    const fidelity = grid.querySelector('tr[data-question="fidelity"]')!;
    expect([...fidelity.querySelectorAll("td.off")].map((td) => td.textContent)).toEqual(["No", "No"]);

    // Every label and review, with the review's overall and per-question comments.
    const work = within(view).getByRole("region", { name: "Labels and reviews" });
    const review = work.querySelector('[data-work="r1"]')!;
    expect(review.textContent).toContain("Corrected the label of Ana");
    expect(review.textContent).toContain("One fix.");
    expect(within(review as HTMLElement).getByRole("list", { name: "Comments per question" }).textContent).toBe("Count correct: There are two cats.");
    expect(work.querySelector('[data-work="l1"]')!.textContent).toContain("1m 05s");
    expect(work.querySelector('[data-work="j1"]')!.textContent).toContain("Rationale: Both cats are visible.");

    // Ground truth history: revision, provenance, by whom, rationale.
    const revs = within(view).getByRole("table", { name: "Ground truth revisions" });
    const rev2 = revs.querySelector('tr[data-revision="2"]')!;
    expect(rev2.textContent).toContain("Adjudicated");
    expect(rev2.textContent).toContain("Ada");
    expect(rev2.textContent).toContain("Both cats are visible.");
    expect(revs.querySelector('tr[data-revision="1"]')!.textContent).toContain("Majority");
    expect(within(view).getByRole("table", { name: "Ground truth answers by revision" }).querySelector("td.changed")?.textContent).toBe("Yes");

    expect(within(view).getByRole("table", { name: "Criteria written for this item" }).textContent).toContain("Exactly two cats are visible");

    // Back to the list, which kept its place.
    fireEvent.click(within(view).getByRole("button", { name: "← All items" }));
    expect(screen.queryByTestId("item-detail")).toBeNull();
    expect(screen.getByRole("table", { name: "Items" })).toBeTruthy();
  });
});

describe("seed family", () => {
  it("lists the seed and its negatives with links to the other members", async () => {
    const family = {
      seed_id: "s1",
      truncated: false,
      members: [
        { id: "i0", external_id: "cats-seed", stage: "done" as const, is_seed: true, flip_set: [] },
        { id: "i1", external_id: "cats-01", stage: "done" as const, is_seed: false, flip_set: ["count"], operator: "prompt_rewrite" },
        { id: "i2", external_id: "cats-02", stage: "label" as const, is_seed: false, flip_set: ["fidelity", "count"], operator: "gaussian_blur" },
      ],
    };
    renderInProject(<ItemsTab />, project, {
      "GET /api/v1/projects/p1/items": () => json(200, { items: [item], next_cursor: "" }),
      "GET /api/v1/projects/p1/items/i1": () => json(200, { ...detail, family }),
      "GET /api/v1/projects/p1/members": () => json(200, members),
      "GET /api/v1/projects/p1/imports": () => json(200, { items: [] }),
    });
    fireEvent.click(await screen.findByText("cats-01"));
    const panel = await screen.findByRole("region", { name: "Seed family" });
    expect(within(panel).getByTestId("family-summary").textContent).toBe("Seed s1: 1 seed, 2 perturbed negatives.");
    const rows = [...panel.querySelectorAll("tbody tr")].map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ["cats-seed", "Seed", "—", "—", "Done"],
      ["cats-01", "Negative", "count", "prompt_rewrite", "Done"],
      ["cats-02", "Negative", "fidelity, count", "gaussian_blur", "Label"],
    ]);
    // the current item is not a link; the others link to their own page
    expect(within(panel).queryByRole("link", { name: "cats-01" })).toBeNull();
    expect(within(panel).getByRole("link", { name: "cats-02" }).getAttribute("href")).toContain("?item=i2");
  });
});

describe("helpers", () => {
  it("formats durations", () => {
    expect(duration(4_400)).toBe("4s");
    expect(duration(125_000)).toBe("2m 05s");
  });
  it("groups review comments by the label and question they are about", () => {
    const m = commentsByLabel(item.reviews, new Map());
    expect(m.get("l1")?.get("count")).toEqual(["There are two cats."]);
    expect(m.get("l2")).toBeUndefined();
  });
});
