import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { ImportReport, ProjectDetail } from "../../../api/workflowTypes";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { ItemsTab } from "./ItemsTab";

const project = { id: "p1", name: "Pilot", my_roles: ["lead"], schema: { version: 1, inputs: [], questions: [] } } as unknown as ProjectDetail;
const report: ImportReport = { lines: 2, imported: 2, updated: 0, unchanged: 0, errors: [] };

describe("Items tab", () => {
  it("offers the import of items with their media beside the items file import", async () => {
    const { calls } = renderInProject(<ItemsTab />, project, {
      "GET /api/v1/projects/p1/members": () => json(200, []),
      "GET /api/v1/projects/p1/items": () => json(200, { items: [], next_cursor: "" }),
      "GET /api/v1/projects/p1/imports": () => json(200, { items: [] }),
      "POST /api/v1/projects/p1/items": () => json(200, report),
    });
    expect(screen.getByRole("heading", { name: "Import items with media" })).toBeTruthy();
    expect(screen.getByLabelText("Items file")).toBeTruthy();

    const media = new File(["PK"], "media.zip", { type: "application/zip" });
    const items = new File(['{"external_id":"a","inputs":{"image":"media/a.png"}}\n'], "items.jsonl", { type: "application/x-ndjson" });
    fireEvent.change(screen.getByLabelText("Media archive (.zip)"), { target: { files: [media] } });
    fireEvent.change(screen.getByLabelText("Items naming the media (.jsonl)"), { target: { files: [items] } });
    fireEvent.click(screen.getByRole("button", { name: "Import with media" }));
    await screen.findByTestId("import-report");
    const sent = calls.find((c) => c.method === "POST" && c.path === "/api/v1/projects/p1/items")!;
    await waitFor(() => expect(sent.body).toBeInstanceOf(FormData));
    const form = sent.body as FormData;
    expect((form.get("media") as File).name).toBe("media.zip");
    expect((form.get("items") as File).name).toBe("items.jsonl");
    expect(sent.headers.get("Content-Type")).toBeNull();
  });
});
