import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { ProjectDetail } from "../../api/workflowTypes";
import { json } from "../../test/fakeApi";
import { renderInProject } from "../project/testing";
import { InvitationList } from "./InvitationList";

const none = {} as ProjectDetail;
const invitation = { id: "i1", project_id: "p1", project_name: "Pilot", roles: ["annotator"], invited_by: "Lena", created_at: "2026-12-01T00:00:00Z" };

describe("InvitationList", () => {
  it("lists the waiting invitations and joins one", async () => {
    const { calls } = renderInProject(<InvitationList />, none, {
      "GET /api/v1/me/invitations": [() => json(200, [invitation]), () => json(200, [])],
      "POST /api/v1/me/invitations/i1/accept": () => new Response(null, { status: 204 }),
      "GET /api/v1/projects": () => json(200, []),
    });
    expect((await screen.findByRole("region", { name: "Invitations" })).textContent).toContain("Pilot as annotator, from Lena");
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Invitations" })).toBeNull());
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain("POST /api/v1/me/invitations/i1/accept");
  });

  it("shows nothing without invitations", async () => {
    const { calls } = renderInProject(<InvitationList />, none, { "GET /api/v1/me/invitations": () => json(200, []) });
    await waitFor(() => expect(calls.length).toBe(1));
    expect(screen.queryByRole("region", { name: "Invitations" })).toBeNull();
  });
});
