import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { Claim, ProjectDetail } from "../../../api/workflowTypes";
import type { Schema } from "../../../api";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { AnnotatePage } from "./AnnotatePage";

const pa: Schema = {
  version: 1,
  inputs: [{ name: "video", type: "text", label: "Video" }],
  questions: [{ key: "pa", kind: "binary", label: "Physics holds", required: true }],
};
const ia: Schema = {
  version: 1,
  inputs: [{ name: "instruction", type: "text", label: "Instruction" }],
  questions: [{ key: "ia", kind: "binary", label: "Instruction followed", required: true }],
};
const project: ProjectDetail = { id: "p1", name: "Passes", my_roles: ["annotator"], schema: pa, workflow: {} } as ProjectDetail;

const step = (n: number) => ({ number: n, count: 2, key: n === 1 ? "pa" : "ia", label: n === 1 ? "Physical adherence" : "Instruction alignment" });

/** Item n of the server's queue in its current pass: pass 1 carries the video only, pass 2 the instruction. */
const claim = (n: number, pass: number): Claim => ({
  assignment: { id: `a${n}`, stage: "label", lease_expires_at: "2030-01-01T00:00:00Z", version: pass, schema_version: 1, draft_source: null },
  item: {
    role: "annotator",
    schema: pass === 1 ? pa : ia,
    item: { inputs: pass === 1 ? { video: `Video ${n}` } : { instruction: `Instruction ${n}` } },
    pass: step(pass),
  },
  draft: null,
  context: {},
});

describe("AnnotatePage with passes", () => {
  it("shows the pass, opens the same item's next pass after a keyboard submit, then the next item", async () => {
    const passOf: Record<number, number> = {};
    const open: number[] = [];
    const log: string[] = [];
    let claimed = 0;
    const take = () => (claimed < 2 ? (open.push(++claimed), (passOf[claimed] = 1), claimed) : null);
    const submit = (n: number) => () => {
      log.push(`submit a${n} pass ${passOf[n]}`);
      if (passOf[n] === 1) {
        passOf[n] = 2;
        return json(200, { assignment: { id: `a${n}`, stage: "label", status: "active", submitted_at: null }, item_stage: "label", replayed: false, next_pass: step(2) });
      }
      open.splice(open.indexOf(n), 1);
      return json(200, { assignment: { id: `a${n}`, stage: "label", status: "submitted", submitted_at: "2030-01-01T00:00:00Z" }, item_stage: "done", replayed: false });
    };
    renderInProject(<AnnotatePage />, project, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, { stages: [] }),
      "POST /api/v1/projects/p1/queue/next": (c: { body: unknown }) => {
        const prefetch = !!(c.body as { prefetch?: boolean }).prefetch;
        log.push(prefetch ? "ahead" : "next");
        const n = prefetch ? (open.length > 1 ? open[1] : take()) : (open[0] ?? take());
        return n ? json(200, claim(n, passOf[n])) : new Response(null, { status: 204 });
      },
      "POST /api/v1/projects/p1/assignments/a1/submit": submit(1),
      "POST /api/v1/projects/p1/assignments/a2/submit": submit(2),
    });
    const answerAndSubmit = () => {
      fireEvent.keyDown(document.activeElement ?? document, { key: "y", bubbles: true });
      fireEvent.keyDown(document.activeElement ?? document, { key: "Enter", ctrlKey: true, bubbles: true });
    };

    const shown = () => screen.getAllByTestId("pass").filter((el) => !el.closest("[hidden]") && el.checkVisibility?.() !== false);
    await screen.findByText("Video 1");
    await waitFor(() => expect(log).toContain("ahead"));
    expect(shown()[0].textContent).toContain("Pass 1 of 2: Physical adherence");
    expect(screen.queryByText("Instruction 1")).toBeNull();

    // Answered pass 1 and submitted within the autosave's quiet second: pass 1 had unsaved changes.
    fireEvent.keyDown(document.activeElement ?? document, { key: "y", bubbles: true });
    expect(screen.getByText("Unsaved changes")).toBeTruthy();
    fireEvent.keyDown(document.activeElement ?? document, { key: "Enter", ctrlKey: true, bubbles: true });
    await screen.findByText("Instruction 1");
    expect(shown()[0].textContent).toContain("Pass 2 of 2: Instruction alignment");
    // Nothing of pass 2 is answered yet, so nothing of it is unsaved.
    expect(screen.queryByText("Unsaved changes")).toBeNull();
    expect(log).toContain("submit a1 pass 1");
    // The item claimed ahead is still held, rendered hidden behind pass 2.
    await waitFor(() => expect(screen.getAllByTestId("pass")).toHaveLength(2));

    answerAndSubmit();
    await screen.findByText("Video 2");
    expect(log.filter((l) => l.startsWith("submit"))).toEqual(["submit a1 pass 1", "submit a1 pass 2"]);
    // The item claimed ahead during item 1 was shown after its last pass: the queue was asked plainly only for item 1 and its pass 2.
    expect(log.filter((l) => l === "next")).toHaveLength(2);
  });
});
