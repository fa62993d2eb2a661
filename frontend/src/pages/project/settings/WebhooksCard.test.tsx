import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { apiError, json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { WebhooksCard } from "./WebhooksCard";

const project = { id: "p1", name: "Pilot", my_roles: ["lead"] } as ProjectDetail;
const t = "2026-12-07T10:00:00Z";
const hook = {
  id: "w1",
  project_id: "p1",
  url: "https://ci.example.org/hook",
  events: ["release.completed"],
  enabled: true,
  created_by: "u1",
  created_at: t,
  updated_at: t,
};
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

describe("WebhooksCard", () => {
  it("adds a webhook with the events ticked and shows its secret once", async () => {
    const { calls } = renderInProject(<WebhooksCard project={project} />, project, {
      "GET /api/v1/projects/p1/webhooks": [() => json(200, { items: [] }), () => json(200, { items: [hook] })],
      "POST /api/v1/projects/p1/webhooks": () => json(201, { ...hook, events: ["release.completed", "item.decided"], secret }),
    });
    expect(await screen.findByText("No webhooks yet.")).toBeTruthy();
    const form = screen.getByRole("form", { name: "Add a webhook" });
    fireEvent.change(within(form).getByLabelText("URL"), { target: { value: " https://ci.example.org/hook " } });
    fireEvent.click(within(form).getByLabelText("item.decided"));
    fireEvent.click(within(form).getByRole("button", { name: "Add webhook" }));
    expect((await screen.findByTestId("webhook-secret")).textContent).toBe(secret);
    expect(calls.find((c) => c.method === "POST")!.body).toEqual({ url: "https://ci.example.org/hook", events: ["release.completed", "item.decided"] });
    await screen.findByTestId("webhook");
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(screen.queryByTestId("webhook-secret")).toBeNull();
  });

  it("shows the server's reason for refusing a private target under the URL", async () => {
    renderInProject(<WebhooksCard project={project} />, project, {
      "GET /api/v1/projects/p1/webhooks": () => json(200, { items: [] }),
      "POST /api/v1/projects/p1/webhooks": () =>
        apiError(422, "validation_failed", "the request has invalid fields", {
          url: { code: "private_address", message: "the url's host 10.0.0.1 is an address on a private network" },
        }),
    });
    const form = await screen.findByRole("form", { name: "Add a webhook" });
    fireEvent.change(within(form).getByLabelText("URL"), { target: { value: "http://10.0.0.1/h" } });
    fireEvent.click(within(form).getByRole("button", { name: "Add webhook" }));
    expect(await within(form).findByText(/is an address on a private network/)).toBeTruthy();
    expect(screen.queryByTestId("webhook-secret")).toBeNull();
  });

  it("disables, rotates, shows the delivery log and deletes", async () => {
    const { calls } = renderInProject(<WebhooksCard project={project} />, project, {
      "GET /api/v1/projects/p1/webhooks": [() => json(200, { items: [hook] }), () => json(200, { items: [{ ...hook, enabled: false }] }), () => json(200, { items: [] })],
      "PATCH /api/v1/projects/p1/webhooks/w1": () => json(200, { ...hook, enabled: false }),
      "POST /api/v1/projects/p1/webhooks/w1/rotate": () => json(200, { ...hook, secret }),
      "GET /api/v1/projects/p1/webhooks/w1/deliveries": () =>
        json(200, {
          items: [
            { id: "msg_1", webhook_id: "w1", event: "release.completed", status: "delivered", attempts: 3, last_error: "the receiver answered 500 Internal Server Error", response_status: 200, created_at: t, updated_at: t, delivered_at: t },
          ],
        }),
      "DELETE /api/v1/projects/p1/webhooks/w1": () => new Response(null, { status: 204 }),
    });
    const row = await screen.findByTestId("webhook");
    fireEvent.click(within(row).getByRole("button", { name: "Disable" }));
    expect(await within(screen.getByTestId("webhook")).findByRole("button", { name: "Enable" })).toBeTruthy();
    expect(calls.find((c) => c.method === "PATCH")!.body).toEqual({ enabled: false });
    fireEvent.click(within(screen.getByTestId("webhook")).getByRole("button", { name: "Rotate secret" }));
    expect((await screen.findByTestId("webhook-secret")).textContent).toBe(secret);
    fireEvent.click(within(screen.getByTestId("webhook")).getByRole("button", { name: "Deliveries" }));
    const log = await screen.findByRole("table", { name: "Deliveries" });
    const cells = within(log).getAllByRole("cell").map((c) => c.textContent);
    expect(cells.slice(0, 5)).toEqual(["release.completed", "delivered", "3", "200", "the receiver answered 500 Internal Server Error"]);
    fireEvent.click(within(screen.getByTestId("webhook")).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByTestId("webhook")).toBeNull());
    expect(calls.some((c) => c.method === "DELETE")).toBe(true);
  });
});
