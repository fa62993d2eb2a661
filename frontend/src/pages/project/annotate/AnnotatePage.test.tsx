import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { Claim, ProjectDetail } from "../../../api/workflowTypes";
import type { Schema } from "../../../form/schema";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { AnnotatePage } from "./AnnotatePage";
import { leftText } from "./progress";

const schema: Schema = {
  version: 1,
  inputs: [{ name: "prompt", type: "text", label: "Prompt" }],
  questions: [{ key: "ok", kind: "binary", label: "Looks right", required: true }],
};
const project: ProjectDetail = { id: "p1", name: "Pilot", my_roles: ["annotator"], schema, workflow: {} } as ProjectDetail;

const claim = (n: number): Claim => ({
  assignment: { id: `a${n}`, stage: "label", lease_expires_at: "2030-01-01T00:00:00Z", version: 1, schema_version: 1 },
  item: { role: "label", schema, item: { external_id: `item-${n}`, inputs: { prompt: `Prompt ${n}` } } },
  draft: null,
  context: {},
});

const later = <T,>(ms: number, fn: () => T) => new Promise<T>((r) => setTimeout(() => r(fn()), ms));

const progress = (today: number, total: number, available: number, capped = false) => ({
  stages: [{ stage: "label", done_today: today, done_total: total, available, available_capped: capped }],
});

describe("leftText", () => {
  it("shows a capped count with a plus", () => {
    expect(leftText({ available: 1000, available_capped: true })).toBe("1000+");
    expect(leftText({ available: 7, available_capped: false })).toBe("7");
  });
});

describe("AnnotatePage progress", () => {
  it("shows the server's counts and refreshes them after the next item is on screen", async () => {
    const shownWhenRefreshed: string[] = [];
    const { calls } = renderInProject(<AnnotatePage />, project, {
      "GET /api/v1/projects/p1/me/progress": [
        () => json(200, progress(2, 40, 1000, true)),
        () => {
          shownWhenRefreshed.push(document.querySelector(".item-id code")?.textContent ?? "");
          return json(200, progress(3, 41, 998));
        },
      ],
      "POST /api/v1/projects/p1/queue/next": [() => json(200, claim(1)), () => later(30, () => json(200, claim(2)))],
      "POST /api/v1/assignments/a1/submit": () => json(200, { assignment: { id: "a1", stage: "label", status: "submitted" }, item_stage: "label", replayed: false }),
      "POST /api/v1/assignments/a1/heartbeat": () => json(200, { lease_expires_at: "2030-01-01T00:00:00Z" }),
      "POST /api/v1/assignments/a2/heartbeat": () => json(200, { lease_expires_at: "2030-01-01T00:00:00Z" }),
    });

    await screen.findByText("item-1");
    await waitFor(() => expect(screen.getByTestId("progress-done").textContent).toBe("2 / 40"));
    expect(screen.getByTestId("progress-left").textContent).toBe("1000+ left");

    fireEvent.keyDown(document.activeElement ?? document, { key: "y", bubbles: true });
    fireEvent.keyDown(document.activeElement ?? document, { key: "Enter", ctrlKey: true, bubbles: true });

    await screen.findByText("item-2");
    await waitFor(() => expect(screen.getByTestId("progress-done").textContent).toBe("3 / 41"));
    expect(screen.getByTestId("progress-left").textContent).toBe("998 left");
    // The refresh went out after the next item was claimed and shown, not before.
    expect(shownWhenRefreshed).toEqual(["item-2"]);
    const order = calls.map((c) => `${c.method} ${c.path}`).filter((c) => !c.includes("heartbeat"));
    expect(order.indexOf("POST /api/v1/assignments/a1/submit")).toBeLessThan(order.lastIndexOf("POST /api/v1/projects/p1/queue/next"));
    expect(order.lastIndexOf("POST /api/v1/projects/p1/queue/next")).toBeLessThan(order.lastIndexOf("GET /api/v1/projects/p1/me/progress"));
    const submit = calls.find((c) => c.path === "/api/v1/assignments/a1/submit");
    expect(submit?.body).toMatchObject({ answers: { ok: "yes" } });
    // No per-browser counter is kept any more.
    expect(Object.keys(localStorage).filter((k) => k.startsWith("arbiter.done."))).toEqual([]);
  });

  it("says how many were done today when the queue is empty", async () => {
    renderInProject(<AnnotatePage />, project, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress(5, 12, 0)),
      "POST /api/v1/projects/p1/queue/next": () => new Response(null, { status: 204 }),
    });
    await screen.findByTestId("queue-empty");
    await screen.findByText("You finished 5 today in this stage.");
    expect(screen.getByTestId("progress-left").textContent).toBe("0 left");
  });
});
