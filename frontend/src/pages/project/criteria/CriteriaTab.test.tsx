import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ProjectDetail, User } from "../../../api";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { visibleTabs } from "../tabs";
import { CriteriaTab } from "./CriteriaTab";

vi.mock("../../../auth", () => ({ useCurrentUser: () => ({ id: "me", email: "me@example.org", name: "Me", is_admin: false }) }));

const criteriaStage = { form: "criteria", question: "criteria", input: "criterion" };
const project = { id: "p1", name: "Omni", my_roles: ["reviewer"], workflow: { criteria_stage: criteriaStage } } as unknown as ProjectDetail;
const user = { id: "u1" } as User;

const view = (prompt: string) => ({
  role: "reviewer",
  schema: { version: 1, inputs: [{ name: "prompt", type: "text", label: "Input prompt" }], questions: [] },
  item: { inputs: { prompt } },
});
const criterion = (id: string, item: string, text: string, author = "u2") => ({
  id, item_id: item, text, status: "pending", project_id: "p1", assignment_id: "a", author_id: author, created_at: "2030-01-01T00:00:00Z", updated_at: "2030-01-01T00:00:00Z",
});

describe("Criteria tab", () => {
  it("is a tab of its own for reviewers and leads when the project has a criteria stage", () => {
    const paths = (p: ProjectDetail) => visibleTabs(p, user).map((t) => t.path);
    expect(paths(project)).toContain("criteria");
    expect(paths({ ...project, my_roles: ["lead"] })).toContain("criteria");
    expect(paths({ ...project, my_roles: ["annotator"] })).not.toContain("criteria");
    expect(paths({ ...project, workflow: {} } as unknown as ProjectDetail)).not.toContain("criteria");
  });

  it("shows the item each criterion was written for beside its criteria, and marks with the keyboard", async () => {
    const marked: string[] = [];
    const { calls } = renderInProject(<CriteriaTab />, project, {
      "GET /api/v1/projects/p1/criteria": () =>
        json(200, {
          items: [criterion("c1", "i1", "Exactly two boats."), criterion("c2", "i1", "The sky is orange.", "me"), criterion("c3", "i2", "The cube is red.")].filter((c) => !marked.includes(c.id)),
          inputs: { i1: view("Two boats at dusk"), i2: view("A red cube") },
        }),
      "POST /api/v1/projects/p1/criteria/c1": () => (marked.push("c1"), json(200, {})),
    });
    const item = await screen.findByTestId("criteria-item");
    expect(within(item).getByText("Two boats at dusk")).toBeTruthy();
    expect(within(item).getByText("Item 1 of 2")).toBeTruthy();
    expect(screen.getByRole("region", { name: "Criteria of item 1" }).textContent).toContain("The sky is orange.");

    const list = screen.getByLabelText(/Criteria to review/);
    fireEvent.keyDown(list, { key: "j" });
    fireEvent.keyDown(list, { key: "j" });
    expect(within(item).getByText("A red cube")).toBeTruthy();
    fireEvent.keyDown(list, { key: "k" });
    // c2 is the reviewer's own: it cannot be marked by them.
    expect(screen.getByText("You wrote this; another reviewer marks it.")).toBeTruthy();
    fireEvent.keyDown(list, { key: "1" });
    fireEvent.keyDown(list, { key: "k" });
    fireEvent.keyDown(list, { key: "1" });
    await waitFor(() => expect(marked).toEqual(["c1"]));
    expect(calls.filter((c) => c.path.endsWith("/criteria/c2"))).toEqual([]);
    await waitFor(() => expect(screen.queryByText("Exactly two boats.")).toBeNull());
  });
});
