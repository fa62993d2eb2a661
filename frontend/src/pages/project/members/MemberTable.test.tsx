import { describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import type { Member } from "../../../api";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { apiError, json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { MemberTable } from "./MemberTable";

const project = { id: "p1", name: "D3", my_roles: ["lead"] } as ProjectDetail;
const members: Member[] = [
  { user_id: "u2", email: "en@example.com", name: "En", roles: ["annotator"], paused: false, qualified: false, languages: ["en"] },
  { user_id: "u3", email: "all@example.com", name: "Alex", roles: ["annotator"], paused: false, qualified: false, languages: [] },
];

describe("MemberTable languages", () => {
  it("shows each member's languages, All for none, and saves a lead's edit as a list", async () => {
    const { calls } = renderInProject(<MemberTable pid="p1" members={members} canManage />, project, {
      "PUT /api/v1/projects/p1/members/u3": () => json(200, { status: "updated", user_id: "u3", email: "all@example.com", roles: ["annotator"], languages: ["en", "zh-Hans"] }),
      "GET /api/v1/projects/p1/members": () => json(200, members),
    });
    const rows = screen.getAllByRole("row");
    expect(within(rows[1]).getByText("en")).toBeTruthy();
    expect(within(rows[2]).getByText("All")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Edit languages of all@example.com" }));
    fireEvent.change(screen.getByLabelText("Languages of all@example.com"), { target: { value: "en,  zh-hans " } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await screen.findByRole("button", { name: "Edit languages of all@example.com" });
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ languages: ["en", "zh-hans"] });
  });

  it("names a refused tag and keeps the text", async () => {
    renderInProject(<MemberTable pid="p1" members={members} canManage />, project, {
      "PUT /api/v1/projects/p1/members/u2": () =>
        apiError(422, "validation_failed", "invalid", { "languages[0]": { code: "invalid_language", message: '"english!" is not a BCP 47 language tag' } }),
    });
    fireEvent.click(screen.getByRole("button", { name: "Edit languages of en@example.com" }));
    fireEvent.change(screen.getByLabelText("Languages of en@example.com"), { target: { value: "english!" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByRole("alert")).textContent).toContain("english!");
    expect((screen.getByLabelText("Languages of en@example.com") as HTMLInputElement).value).toBe("english!");
  });

  it("has no edit button for people who cannot manage members", () => {
    renderInProject(<MemberTable pid="p1" members={members} canManage={false} />, project, {});
    expect(screen.queryByRole("button", { name: /Edit languages/ })).toBeNull();
  });
});
