import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { apiError, json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { StuckWork } from "./StuckWork";

const project = { id: "p1", name: "Pilot", my_roles: ["lead"] } as ProjectDetail;
const item = "0190c3d4e5f6a7b8c9d0e1f2a3b4c5d6";
const stuckLabel = {
  stages: [{ stage: "label", count: 1, count_capped: false, reason: "needs an annotator who has not worked on the item in another stage", ids: [item] }],
};
const candidates = {
  candidates: [
    { user_id: "u-lead", email: "lead@example.org", name: "Lea", roles: ["lead"], has_role: false },
    { user_id: "u-n", email: "n@example.org", name: "Noor", roles: ["annotator", "viewer"], has_role: true },
  ],
};

function openHandOver() {
  fireEvent.click(screen.getByRole("button", { name: "Hand to someone…" }));
  return screen.getByRole("form", { name: "Hand over Label work" });
}

describe("StuckWork", () => {
  it("hands a stuck item to a member the server says may take it, adding the role they lack", async () => {
    const { calls } = renderInProject(<StuckWork pid="p1" />, project, {
      "GET /api/v1/projects/p1/stuck": [() => json(200, stuckLabel), () => json(200, { stages: [] })],
      "GET /api/v1/projects/p1/stuck/candidates": () => json(200, candidates),
      "POST /api/v1/projects/p1/stuck/assign": () =>
        json(200, {
          status: "assigned",
          user_id: "u-lead",
          email: "lead@example.org",
          role: "annotator",
          role_added: true,
          assignment: { id: "a9", item_id: item, stage: "label", lease_expires_at: "2026-12-07T10:00:00Z" },
        }),
    });
    await screen.findByTestId("stuck-work");
    const form = openHandOver();
    const person = within(form).getByLabelText("Give it to");
    await waitFor(() => expect(within(person).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Choose a member",
      "Lea <lead@example.org> — adds the annotator role",
      "Noor <n@example.org>",
    ]));
    expect(within(form).getByRole("button", { name: "Hand over" })).toHaveProperty("disabled", true);
    fireEvent.change(person, { target: { value: "u-lead" } });
    fireEvent.click(within(form).getByRole("button", { name: "Hand over" }));
    const handed = await screen.findByTestId("stuck-handed");
    expect(handed.textContent).toMatch(/^Held for Lea \(now an annotator\) until .+: their next claim in the Label stage gives it to them\.$/);
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({ stage: "label", id: item, user: "u-lead", grant_role: true });
    // The stuck list is asked again: nothing is stuck any more, and the message stays.
    await waitFor(() => expect(screen.queryByTestId("stuck-work")).toBeNull());
    expect(screen.getByTestId("stuck-handed")).toBeTruthy();
  });

  it("asks the server who may take the work, with the id of the item", async () => {
    const { fetch } = renderInProject(<StuckWork pid="p1" />, project, {
      "GET /api/v1/projects/p1/stuck": () => json(200, stuckLabel),
      "GET /api/v1/projects/p1/stuck/candidates": () => json(200, { candidates: [] }),
    });
    await screen.findByTestId("stuck-work");
    const form = openHandOver();
    expect(await within(form).findByText(/No member may take this item/)).toBeTruthy();
    const urls = (fetch as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => String(c[0]));
    expect(urls).toContain(`/api/v1/projects/p1/stuck/candidates?stage=label&id=${item}`);
    expect(within(form).getByLabelText("Give it to")).toHaveProperty("disabled", true);
  });

  it("shows the server's reason when it refuses the hand-off", async () => {
    renderInProject(<StuckWork pid="p1" />, project, {
      "GET /api/v1/projects/p1/stuck": () => json(200, stuckLabel),
      "GET /api/v1/projects/p1/stuck/candidates": () => json(200, candidates),
      "POST /api/v1/projects/p1/stuck/assign": () =>
        apiError(422, "validation_failed", "validation failed", {
          user: { code: "not_independent", message: "this person cannot be given this label work: it needs someone who has not worked on the item in another stage" },
        }),
    });
    await screen.findByTestId("stuck-work");
    const form = openHandOver();
    await waitFor(() => expect(within(form).getAllByRole("option").length).toBeGreaterThan(3));
    fireEvent.change(within(form).getByLabelText("Give it to"), { target: { value: "u-n" } });
    fireEvent.click(within(form).getByRole("button", { name: "Hand over" }));
    const alert = await within(form).findByText("The server refused the hand-off.");
    expect(alert.closest("[role=alert]")!.textContent).toContain("this person cannot be given this label work");
    expect(screen.queryByTestId("stuck-handed")).toBeNull();
  });
});
