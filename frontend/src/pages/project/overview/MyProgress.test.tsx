import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { MyProgress } from "./MyProgress";

const schema = { inputs: [], questions: [{ key: "count_correct", kind: "binary", label: "Is the count correct?", short_label: "Count" }] };
const annotator = { id: "p1", name: "Pilot", my_roles: ["annotator"], schema } as unknown as ProjectDetail;
const progress = { stages: [{ stage: "label", done_today: 2, done_total: 9, available: 4, available_capped: false }] };
const rejections = {
  items: [
    {
      label_id: "l2",
      submitted_at: "2026-12-06T10:00:00Z",
      reviewed_at: "2026-12-06T11:00:00Z",
      comment: "There are three cats, not two.",
      comments: { count_correct: "look at the left edge" },
    },
    { label_id: "l1", submitted_at: "2026-12-05T10:00:00Z", reviewed_at: "2026-12-05T12:00:00Z", comment: "" },
  ],
};

describe("MyProgress", () => {
  it("shows an annotator why a reviewer rejected each of their labels", async () => {
    renderInProject(<MyProgress project={annotator} />, annotator, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress),
      "GET /api/v1/projects/p1/me/rejections": () => json(200, rejections),
    });
    const list = await screen.findByRole("region", { name: "Rejected in review" });
    const [first, second] = within(list).getAllByRole("listitem");
    expect(within(first).getByText("There are three cats, not two.")).toBeTruthy();
    expect(first.querySelector("dt")!.textContent).toBe("Count");
    expect(first.querySelector("dd")!.textContent).toBe("look at the left edge");
    expect(second.textContent).toContain("The reviewer gave no reason.");
    expect(screen.getByRole("table", { name: "Your progress" }).textContent).toContain("9");
  });

  it("shows nothing of review when no label was rejected, and asks only members who annotate", async () => {
    const { calls } = renderInProject(<MyProgress project={annotator} />, annotator, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress),
      "GET /api/v1/projects/p1/me/rejections": () => json(200, { items: [] }),
    });
    await screen.findByRole("table", { name: "Your progress" });
    expect(screen.queryByTestId("my-rejections")).toBeNull();
    expect(calls.some((c) => c.path.endsWith("/me/rejections"))).toBe(true);

    const reviewer = { ...annotator, my_roles: ["reviewer"] } as ProjectDetail;
    const second = renderInProject(<MyProgress project={reviewer} />, reviewer, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, { stages: [{ ...progress.stages[0], stage: "review" }] }),
    });
    await within(second.container).findByRole("table", { name: "Your progress" });
    expect(second.calls.some((c) => c.path.endsWith("/me/rejections"))).toBe(false);
  });
});
