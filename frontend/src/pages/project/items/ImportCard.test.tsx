import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { BackgroundImport, ImportReport, ProjectDetail } from "../../../api/workflowTypes";
import { apiError, json } from "../../../test/fakeApi";
import { FakeXhr } from "../../../test/fakeXhr";
import { renderInProject } from "../testing";
import { ImportCard, formatBytes } from "./ImportCard";
import { IMPORT_FILENAME_MAX, asyncImportQuery } from "../../../api/workflow";

const project = { id: "p1", name: "Pilot", my_roles: ["lead"] } as ProjectDetail;
const report: ImportReport = { lines: 10, imported: 9, updated: 0, unchanged: 0, errors: [{ line: 4, error: "invalid JSON" }] };
const job = (over: Partial<BackgroundImport>): BackgroundImport => ({
  id: "im1",
  kind: "items",
  status: "queued",
  bytes_total: 2048,
  bytes_done: 0,
  lines_done: 0,
  percent: 0,
  report: null,
  error: null,
  created_at: "2026-11-29T10:00:00Z",
  updated_at: "2026-11-29T10:00:00Z",
  ...over,
});

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

function pickFile() {
  const file = new File(['{"external_id":"a","inputs":{}}\n'], "items 2026.jsonl", { type: "application/x-ndjson" });
  fireEvent.change(screen.getByLabelText("Items file"), { target: { files: [file] } });
  fireEvent.click(screen.getByRole("button", { name: "Import" }));
}

const bar = (name: string) => screen.getByRole("progressbar", { name }).getAttribute("aria-valuenow");

describe("ImportCard", () => {
  it("uploads for a background import, polls its progress and shows the report", async () => {
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    const { calls } = renderInProject(<ImportCard pid="p1" pollMs={5} />, project, {
      "GET /api/v1/projects/p1/imports": [
        () => json(200, { items: [] }),
        () => json(200, { items: [job({ status: "running", percent: 40 })] }),
        () => json(200, { items: [job({ status: "done", percent: 100, lines_done: 10, report, filename: "items 2026.jsonl" })] }),
      ],
      "GET /api/v1/projects/p1/imports/im1": [
        () => json(200, job({ status: "running", bytes_done: 819, lines_done: 4, percent: 40 })),
        async () => {
          await finished;
          return json(200, job({ status: "done", bytes_done: 2048, lines_done: 10, percent: 100, report }));
        },
      ],
    });
    pickFile();
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe("POST");
    expect(xhr.url).toBe("/api/v1/projects/p1/items?async=true&filename=items+2026.jsonl");
    expect(xhr.headers["Content-Type"]).toBe("application/x-ndjson");

    act(() => xhr.progress(50, 100));
    expect(bar("Upload")).toBe("50");
    expect(screen.queryByRole("progressbar", { name: "Server import" })).toBeNull();

    act(() => xhr.respond(202, job({}), { Location: "/api/v1/projects/p1/imports/im1" }));
    await waitFor(() => expect(bar("Server import")).toBe("40"));
    expect(bar("Upload")).toBe("100");
    expect(screen.getByText(/Importing on the server — 40% \(4 lines\)/)).toBeTruthy();

    finish();
    const rep = await screen.findByTestId("import-report");
    expect(rep.textContent).toContain("10 lines: 9 imported, 0 updated, 0 unchanged, 1 with errors.");
    expect(within(rep).getByRole("table", { name: "Lines with errors" }).textContent).toContain("invalid JSON");
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect(calls.filter((c) => c.path === "/api/v1/projects/p1/imports/im1").length).toBe(2);

    // The recent imports list is refreshed and offers the report again.
    const recent = await screen.findByRole("table", { name: "Recent imports" });
    await waitFor(() => expect(within(recent).getByText("Done")).toBeTruthy());
    expect(recent.textContent).toContain("9 imported");
    expect(recent.textContent).toContain("2.0 KB");
    expect(within(recent).getByText("items 2026.jsonl")).toBeTruthy();
  });

  it("shows why a background import failed", async () => {
    renderInProject(<ImportCard pid="p1" pollMs={5} />, project, {
      "GET /api/v1/projects/p1/imports": () => json(200, { items: [] }),
      "GET /api/v1/projects/p1/imports/im1": () => json(200, job({ status: "failed", error: "the stored file is gone" })),
    });
    pickFile();
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    act(() => FakeXhr.last!.respond(202, job({}), { Location: "/api/v1/projects/p1/imports/im1" }));
    expect((await screen.findByRole("alert")).textContent).toContain("the stored file is gone");
    expect(screen.queryByTestId("import-report")).toBeNull();
  });

  it("imports in the request when the server runs no background jobs", async () => {
    renderInProject(<ImportCard pid="p1" />, project, { "GET /api/v1/projects/p1/imports": () => json(200, { items: [] }) });
    pickFile();
    await waitFor(() => expect(FakeXhr.all.length).toBe(1));
    const unavailable = await apiError(503, "unavailable", "background jobs are not running on this server; import without async").json();
    act(() => FakeXhr.all[0].respond(503, unavailable));
    await waitFor(() => expect(FakeXhr.all.length).toBe(2));
    expect(FakeXhr.all[1].url).toBe("/api/v1/projects/p1/items");
    act(() => FakeXhr.all[1].respond(200, report));
    expect((await screen.findByTestId("import-report")).textContent).toContain("9 imported");
  });

  it("imports into the calibration pool in the request, and pasted lines as a file", async () => {
    renderInProject(<ImportCard pid="p1" />, project, { "GET /api/v1/projects/p1/imports": () => json(200, { items: [] }) });
    fireEvent.click(screen.getByRole("radio", { name: /Calibration pool/ }));
    fireEvent.click(screen.getByRole("radio", { name: "Pasted lines" }));
    const line = '{"external_id":"c1","inputs":{"prompt":"p"},"ground_truth":{"answers":{"score":4}}}';
    fireEvent.change(screen.getByLabelText("Lines to import"), { target: { value: line } });
    fireEvent.click(screen.getByRole("button", { name: "Import into the calibration pool" }));
    await waitFor(() => expect(FakeXhr.all.length).toBe(1));
    expect(FakeXhr.all[0].url).toBe("/api/v1/projects/p1/items?pool=calibration");
    expect(await (FakeXhr.all[0].body as Blob).text()).toBe(line + "\n");
    const refused: ImportReport = {
      lines: 2,
      imported: 1,
      updated: 0,
      unchanged: 0,
      errors: [{ line: 2, error: 'unknown field "pool"', details: { pool: { code: "unknown_field", message: '"pool" is not a field here' } } }],
    };
    act(() => FakeXhr.all[0].respond(200, refused));
    const table = await screen.findByRole("table", { name: "Lines with errors" });
    const cells = Array.from(within(table).getAllByRole("row")[1].querySelectorAll("td")).map((td) => td.textContent);
    expect(cells[0]).toBe("2");
    expect(cells[1]).toBe("pool");
    expect(cells[2]).toContain('"pool" is not a field here');
    expect(cells[3]).toContain("choose the calibration pool");
  });

  it("lists recent imports, newest first, with their reports on demand", async () => {
    renderInProject(<ImportCard pid="p1" />, project, {
      "GET /api/v1/projects/p1/imports": () =>
        json(200, {
          items: [
            job({ id: "im2", status: "running", percent: 12.5, lines_done: 300, bytes_total: 6 * 1024 * 1024, filename: "batch-07.ndjson" }),
            job({ id: "im1", status: "done", percent: 100, report, filename: "" }),
          ],
        }),
    });
    const recent = await screen.findByRole("table", { name: "Recent imports" });
    const rows = within(recent).getAllByRole("row").slice(1);
    expect(rows[0].textContent).toContain("Running");
    expect(rows[0].textContent).toContain("12%");
    expect(rows[0].textContent).toContain("6.0 MB");
    expect(rows[0].textContent).toContain("300 lines so far");
    const fileCol = within(recent).getAllByRole("columnheader").findIndex((h) => h.textContent === "File");
    expect(rows[0].querySelectorAll("td")[fileCol].textContent).toBe("batch-07.ndjson");
    // No name was sent with that upload.
    expect(rows[1].querySelectorAll("td")[fileCol].textContent).toBe("—");
    fireEvent.click(within(rows[1]).getByRole("button", { name: "Report" }));
    expect(within(recent).getByTestId("import-report").textContent).toContain("10 lines: 9 imported");
  });
});

describe("formatBytes", () => {
  it("picks a readable unit", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(5 * 1024 * 1024 + 1)).toBe("5.0 MB");
  });
});

describe("asyncImportQuery", () => {
  it("sends the base name, encoded and cut to what the server keeps, and nothing when there is none", () => {
    expect(asyncImportQuery("a&b=c.jsonl")).toBe("?async=true&filename=a%26b%3Dc.jsonl");
    expect(asyncImportQuery("C:\\fakepath\\items.jsonl")).toBe("?async=true&filename=items.jsonl");
    expect(asyncImportQuery("")).toBe("?async=true");
    expect(asyncImportQuery()).toBe("?async=true");
    const long = new URLSearchParams(asyncImportQuery("x".repeat(300) + ".jsonl").slice(1)).get("filename")!;
    expect(long.length).toBe(IMPORT_FILENAME_MAX);
  });
});
