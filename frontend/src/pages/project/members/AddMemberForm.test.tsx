import { describe, expect, it } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { apiError, json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { AddMemberForm } from "./AddMemberForm";

const project = { id: "p1", name: "Pilot", my_roles: ["lead"] } as ProjectDetail;

function fill(who: string, roles: { on?: string[]; off?: string[] } = {}) {
  fireEvent.change(screen.getByLabelText("Email or user id"), { target: { value: who } });
  for (const r of roles.on ?? []) fireEvent.click(screen.getByRole("checkbox", { name: r }));
  for (const r of roles.off ?? []) fireEvent.click(screen.getByRole("checkbox", { name: r }));
  fireEvent.click(screen.getByRole("button", { name: "Save roles" }));
}

describe("AddMemberForm", () => {
  it("adds a person by email straight through PUT /members/:email, without reading the user list", async () => {
    const { calls } = renderInProject(<AddMemberForm pid="p1" />, project, {
      "PUT /api/v1/projects/p1/members/ann%40example.com": () => json(200, { status: "added", user_id: "u2", email: "ann@example.com", name: "Ann", roles: ["annotator", "reviewer"] }),
    });
    fill("  ann@example.com ", { on: ["reviewer"] });
    expect((await screen.findByRole("status")).textContent).toBe("Ann (ann@example.com) now has: annotator, reviewer.");
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["PUT /api/v1/projects/p1/members/ann%40example.com"]);
    expect(calls[0].body).toEqual({ roles: ["annotator", "reviewer"] });
    expect((screen.getByLabelText("Email or user id") as HTMLInputElement).value).toBe("");
    // The roles start over for the next person.
    expect((screen.getByRole("checkbox", { name: "annotator" }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole("checkbox", { name: "reviewer" }) as HTMLInputElement).checked).toBe(false);
  });

  it("takes a user id as well", async () => {
    const { calls } = renderInProject(<AddMemberForm pid="p1" />, project, {
      "PUT /api/v1/projects/p1/members/u42": () => json(200, { status: "added", user_id: "u42", email: "lee@example.com", name: "Lee", roles: ["viewer"] }),
    });
    fill("u42", { on: ["viewer"], off: ["annotator"] });
    await screen.findByText("Lee (lee@example.com) now has: viewer.");
    expect(calls[0].body).toEqual({ roles: ["viewer"] });
  });

  it("says when the person was invited rather than added, with nothing about whether they have an account", async () => {
    renderInProject(<AddMemberForm pid="p1" />, project, {
      "PUT /api/v1/projects/p1/members/new%40example.com": () => json(200, { status: "invited", email: "new@example.com", roles: ["annotator"] }),
    });
    fill("new@example.com");
    expect((await screen.findByRole("status")).textContent).toBe("Invited new@example.com as annotator. They join the project when they accept.");
  });

  it("says when nobody has that email", async () => {
    renderInProject(<AddMemberForm pid="p1" />, project, {
      "PUT /api/v1/projects/p1/members/who%40example.com": () => apiError(404, "not_found", "user not found"),
    });
    fill("who@example.com");
    expect((await screen.findByRole("alert")).textContent).toContain("No user has the email who@example.com.");
  });

  it("removes a member when no role is left", async () => {
    renderInProject(<AddMemberForm pid="p1" />, project, {
      "PUT /api/v1/projects/p1/members/ann%40example.com": () => json(200, { status: "removed", user_id: "u2", email: "ann@example.com", name: "Ann", roles: [] }),
    });
    fill("ann@example.com", { off: ["annotator"] });
    await screen.findByText("Ann (ann@example.com) was removed from the project.");
  });

  it("shows the server's refusal", async () => {
    renderInProject(<AddMemberForm pid="p1" />, project, {
      "PUT /api/v1/projects/p1/members/ann%40example.com": () => apiError(403, "forbidden", "only leads can change members"),
    });
    fill("ann@example.com");
    expect((await screen.findByRole("alert")).textContent).toContain("only leads can change members");
  });
});
