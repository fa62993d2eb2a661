import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import type { Release } from "../../../api/releases";
import { apiError, json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { ReleasesTab } from "./ReleasesTab";
import { ReleaseList } from "./ReleaseList";
import { defaultChoices, releaseRequest } from "./options";

const lead = { id: "p1", name: "Pilot", my_roles: ["lead"] } as ProjectDetail;
const viewer = { id: "p1", name: "Pilot", my_roles: ["viewer"] } as ProjectDetail;

const release = (over: Partial<Release>): Release => ({
  id: "r1",
  name: "v1",
  status: "queued",
  formats: ["jsonl", "hf"],
  options: {},
  schema_version: 1,
  progress: { records: 0, total: 0 },
  created_by: "u1",
  created_at: "2026-11-29T10:00:00Z",
  updated_at: "2026-11-29T10:00:00Z",
  ...over,
});

describe("releaseRequest", () => {
  it("sends only what differs from the server's defaults", () => {
    expect(releaseRequest({ ...defaultChoices, name: " v1 " })).toEqual({ name: "v1", formats: ["jsonl", "hf"], options: {} });
  });

  it("turns the choices into options", () => {
    const req = releaseRequest({
      ...defaultChoices,
      name: "v2",
      formats: ["robojudge", "omnireward"],
      includeDropped: true,
      raw: true,
      media: "reference",
      split: "ratio",
      ratios: "train=0.8,test=0.2",
      clusterKey: "source_clip",
      filter: "task=text_to_image,text_to_video\n\nbad line",
      ties: false,
    });
    expect(req.options).toEqual({
      include_dropped: true,
      raw: true,
      media: "reference",
      split_ratios: "train=0.8,test=0.2",
      cluster_key: "source_clip",
      "filter.task": "text_to_image,text_to_video",
      ties: false,
    });
    expect(releaseRequest({ ...defaultChoices, split: "key", splitKey: "split", ties: false }).options).toEqual({ split_key: "split" });
  });
});

const FORMATS = {
  formats: [
    { name: "jsonl", description: "canonical records, one JSON object per line: jsonl/<split>.jsonl", options: [] },
    { name: "hf", description: "Hugging Face datasets layout", options: ["row_group_rows"] },
    { name: "omnireward", description: "Omni-RewardBench preference arrays", options: ["ties"] },
  ],
};
const formats = () => json(200, FORMATS);

describe("ReleasesTab", () => {
  it("offers the formats the server lists and sends the chosen ones", async () => {
    const { calls } = renderInProject(<ReleasesTab />, lead, {
      "GET /api/v1/formats": formats,
      "GET /api/v1/projects/p1/releases": () => json(200, { items: [] }),
      "POST /api/v1/projects/p1/releases": () => json(202, release({})),
    });
    const omni = (await screen.findByLabelText("omnireward", {}, { timeout: 5000 })) as HTMLInputElement;
    expect(omni.checked).toBe(false);
    expect((screen.getByLabelText("jsonl") as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText("Omni-RewardBench preference arrays").id).toBe(omni.getAttribute("aria-describedby"));
    fireEvent.click(omni);
    fireEvent.click(screen.getByLabelText("hf"));
    expect(screen.getByLabelText("Omni-Reward: keep tie records")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "v1" } });
    fireEvent.click(screen.getByRole("button", { name: "Start release" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")?.body).toEqual({ name: "v1", formats: ["jsonl", "omnireward"], options: {} }), { timeout: 5000 });
  });

  it("says when the formats cannot be loaded", async () => {
    renderInProject(<ReleasesTab />, lead, {
      "GET /api/v1/formats": () => apiError(500, "internal", "Something broke."),
      "GET /api/v1/projects/p1/releases": () => json(200, { items: [] }),
    });
    expect((await screen.findByRole("alert", {}, { timeout: 5000 })).textContent).toContain("Could not load the formats.");
  });

  it("starts a release and shows the server's field errors by the field", async () => {
    const { calls } = renderInProject(<ReleasesTab />, lead, {
      "GET /api/v1/formats": formats,
      "GET /api/v1/projects/p1/releases": [() => json(200, { items: [] }), () => json(200, { items: [release({})] })],
      "POST /api/v1/projects/p1/releases": [
        () => apiError(422, "validation_failed", "the request has invalid fields", {
          "options.split_key": { code: "missing_split_key", message: "2 of the 5 items to release cannot be placed in a split" },
        }),
        () => json(202, release({})),
      ],
    });
    expect(await screen.findByText("No releases yet.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "v1" } });
    fireEvent.click(screen.getByLabelText("From a metadata key"));
    fireEvent.change(screen.getByLabelText("Metadata key"), { target: { value: "split" } });
    fireEvent.click(screen.getByRole("button", { name: "Start release" }));
    expect(await screen.findByText("2 of the 5 items to release cannot be placed in a split")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ name: "v1", formats: ["jsonl", "hf"], options: { split_key: "split" } });
    fireEvent.click(screen.getByRole("button", { name: "Start release" }));
    expect(await screen.findByRole("progressbar", { name: "Release v1" })).toBeTruthy();
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("");
  });

  it("copies media unless asked, and warns when the links of a release by reference stop working", async () => {
    const { calls } = renderInProject(<ReleasesTab />, lead, {
      "GET /api/v1/formats": formats,
      "GET /api/v1/projects/p1/releases": () => json(200, { items: [] }),
      "POST /api/v1/projects/p1/releases": () =>
        apiError(422, "validation_failed", "the request has invalid fields", {
          "options.media": { code: "no_public_url", message: "links to the project's uploaded media would have no host" },
        }),
    });
    expect(((await screen.findByLabelText("Media copied into the release")) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByTestId("links-expire")).toBeNull();
    fireEvent.click(screen.getByLabelText("Media referenced by links that expire"));
    const warning = screen.getByTestId("links-expire").textContent ?? "";
    expect(warning).toContain("stop working 7 days after the release is started");
    expect(warning).toContain(String(new Date(Date.now() + 7 * 24 * 3600 * 1000).getFullYear()));
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "v1" } });
    fireEvent.click(screen.getByRole("button", { name: "Start release" }));
    expect((await screen.findByRole("alert")).textContent).toContain("would have no host");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ name: "v1", formats: ["jsonl", "hf"], options: { media: "reference" } });
  });

  it("says why a project cannot be released", async () => {
    renderInProject(<ReleasesTab />, lead, {
      "GET /api/v1/formats": formats,
      "GET /api/v1/projects/p1/releases": () => json(200, { items: [] }),
      "POST /api/v1/projects/p1/releases": () =>
        apiError(422, "validation_failed", "the request has invalid fields", { project: { code: "nothing_done", message: "no item of this project is done yet" } }),
    });
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "v1" } });
    fireEvent.click(screen.getByRole("button", { name: "Start release" }));
    expect((await screen.findByRole("alert")).textContent).toContain("no item of this project is done yet");
  });

  it("lets a viewer follow releases but not start one", async () => {
    renderInProject(<ReleasesTab />, viewer, { "GET /api/v1/projects/p1/releases": () => json(200, { items: [] }) });
    expect(await screen.findByText("No releases yet.")).toBeTruthy();
    expect(screen.queryByRole("form", { name: "New release" })).toBeNull();
  });
});

describe("ReleaseList", () => {
  it("polls a running release, then offers its summary and downloads through signed links", async () => {
    const navigate = vi.fn();
    const done = release({
      status: "done",
      progress: { records: 40, total: 40 },
      summary: {
        records: 40,
        by_split: { train: 32, test: 8 },
        by_provenance: { adjudicated: 40 },
        by_language: { en: 30, "zh-Hans": 8, und: 2 },
        tally: {
          read: 43,
          total: 40,
          by_split: { train: 32, test: 8 },
          by_status: { done: 40 },
          by_provenance: { adjudicated: 40 },
          excluded: 3,
          left_out: [
            { kind: "dropped", reason: "no consensus", items: 2 },
            { kind: "unresolved", items: 1 },
          ],
          filtered: 0,
          dropped: [{ kind: "dropped", reason: "no consensus", items: 2 }],
          unresolved: 1,
          skipped: 0,
          formats: { jsonl: { records: 40, left_out: [] } },
        },
        files: 6,
        bytes: 5 << 20,
      },
    });
    renderInProject(<ReleaseList pid="p1" pollMs={5} navigate={navigate} />, lead, {
      "GET /api/v1/projects/p1/releases": [
        () => json(200, { items: [release({ status: "running", progress: { records: 10, total: 40 } })] }),
        () => json(200, { items: [done] }),
      ],
      "GET /api/v1/projects/p1/releases/r1/links": () =>
        json(200, {
          archive: "/api/v1/release-archives/r1?exp=1&sig=abc",
          files: [{ path: "jsonl/train.jsonl", url: "/blobs/releases/p1/r1/jsonl/train.jsonl?sig=x", bytes: 2048, sha256: "ab".repeat(32) }],
          expires_at: "2026-11-29T10:15:00Z",
        }),
    });
    const bar = await screen.findByRole("progressbar", { name: "Release v1" });
    expect(bar.getAttribute("aria-valuenow")).toBe("25");
    expect(screen.getByText("10 of 40 items — 25%")).toBeTruthy();
    expect(await screen.findByText("train 32, test 8")).toBeTruthy();
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect(screen.getByText(/6 \(5\.0 MiB\)/)).toBeTruthy();
    expect(screen.getByText("en 30, zh-Hans 8, none 2")).toBeTruthy();
    expect(screen.getByText("43: released 40, left out 3")).toBeTruthy();
    expect(screen.getByText("dropped (no consensus) 2, unresolved 1")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Download archive (.zip)" }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith("/api/v1/release-archives/r1?exp=1&sig=abc"));
    const files = screen.getByRole("table", { name: "Files of v1" });
    expect(within(files).getByRole("link", { name: "jsonl/train.jsonl" }).getAttribute("href")).toContain("/blobs/releases/p1/r1/");
  });

  it("says when the links of a release by reference stop working, or stopped", async () => {
    renderInProject(<ReleaseList pid="p1" />, lead, {
      "GET /api/v1/projects/p1/releases": () =>
        json(200, {
          items: [
            release({ id: "r2", name: "v2", options: { media: "reference" }, media_links_expire_at: "2999-01-08T10:00:00Z" }),
            release({ id: "r1", options: { media: "reference" }, media_links_expire_at: "2020-01-08T10:00:00Z" }),
            release({ id: "r0", name: "v0" }),
          ],
        }),
    });
    const v2 = await screen.findByText("v2");
    expect(within(v2.closest("li")!).getByRole("status").textContent).toMatch(/stop working on .*2999/);
    const rows = screen.getAllByRole("listitem");
    expect(within(rows[1]).getByRole("status").textContent).toMatch(/stopped working on .*2020/);
    expect(within(rows[2]).queryByRole("status")).toBeNull();
  });

  it("shows why a release failed", async () => {
    renderInProject(<ReleaseList pid="p1" />, lead, {
      "GET /api/v1/projects/p1/releases": () => json(200, { items: [release({ status: "failed", error: "the blob store did not take jsonl/test.jsonl: connection refused" })] }),
    });
    expect((await screen.findByRole("alert")).textContent).toContain("connection refused");
  });
});
