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
    expect(sent.search).toBe("");
  });

  it("opens on the calibration pool from ?pool=calibration: both import forms and the format follow the choice", async () => {
    const { calls } = renderInProject(
      <ItemsTab />,
      project,
      {
        "GET /api/v1/projects/p1/members": () => json(200, []),
        "GET /api/v1/projects/p1/items": () => json(200, { items: [], next_cursor: "" }),
        "GET /api/v1/projects/p1/items/sample": () => json(200, { pool: "calibration", inputs: [], meta: [], lines: [] }),
        "GET /api/v1/projects/p1/imports": () => json(200, { items: [] }),
        "POST /api/v1/projects/p1/items": () => json(200, report),
      },
      "/?pool=calibration",
    );
    const pools = screen.getAllByRole("radio", { name: /Calibration pool/ });
    expect(pools.length).toBe(2);
    expect(pools.every((r) => (r as HTMLInputElement).checked)).toBe(true);
    expect(screen.getByRole("heading", { name: "Import format — calibration pool" })).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.path.endsWith("/items/sample") && c.search === "?pool=calibration")).toBe(true));

    const media = new File(["PK"], "media.zip", { type: "application/zip" });
    const items = new File(['{"external_id":"a","inputs":{}}\n'], "items.jsonl", { type: "application/x-ndjson" });
    fireEvent.change(screen.getByLabelText("Media archive (.zip)"), { target: { files: [media] } });
    fireEvent.change(screen.getByLabelText("Items naming the media (.jsonl)"), { target: { files: [items] } });
    fireEvent.click(screen.getByRole("button", { name: "Import with media into the calibration pool" }));
    await screen.findByTestId("import-report");
    expect(calls.find((c) => c.method === "POST")!.search).toBe("?pool=calibration");

    fireEvent.click(screen.getAllByRole("radio", { name: "Production items" })[1]);
    expect(screen.getAllByRole("radio", { name: "Production items" }).every((r) => (r as HTMLInputElement).checked)).toBe(true);
    expect(screen.getByRole("heading", { name: "Import format — production items" })).toBeTruthy();
  });
});
