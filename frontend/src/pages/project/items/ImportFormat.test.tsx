import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import type { ItemSample, ProjectDetail } from "../../../api/workflowTypes";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { ImportFormat, sampleFile } from "./ImportFormat";

const project = { id: "p1", name: "Pilot", my_roles: ["lead"] } as ProjectDetail;
const sample = (pool: ItemSample["pool"]): ItemSample => ({
  pool,
  inputs: [
    { name: "video", type: "video", label: "Generated video" },
    { name: "generator", type: "text", label: "Generator", hidden: true, optional: true },
  ],
  meta: [{ key: "source_corpus", options: ["DROID", "BridgeData"], required: true }],
  lines: [
    {
      external_id: "example-1",
      gold: false,
      inputs: { video: "https://example.org/media/video-1.mp4", generator: "The Generator of item 1" },
      ...(pool === "calibration" ? { ground_truth: { answers: { physical_adherence: 5 } } } : {}),
    },
  ],
});

describe("ImportFormat", () => {
  it("names every input key with its type, whether it is required and whether annotators see it", async () => {
    const { calls } = renderInProject(<ImportFormat pid="p1" pool="production" />, project, {
      "GET /api/v1/projects/p1/items/sample": () => json(200, sample("production")),
    });
    const keys = await screen.findByRole("table", { name: "Input keys" });
    const rows = within(keys).getAllByRole("row").slice(1).map((r) => Array.from(r.querySelectorAll("td")).map((td) => td.textContent));
    expect(rows[0].slice(0, 4)).toEqual(["inputs.video", "video", "required", "shown"]);
    expect(rows[1].slice(0, 4)).toEqual(["inputs.generator", "text", "optional", "hidden"]);
    expect(rows[2].slice(0, 4)).toEqual(["meta.source_corpus", "one of DROID, BridgeData", "required", "hidden"]);
    expect(screen.queryByTestId("gold-format")).toBeNull();
    expect(screen.getByRole("button", { name: "Download a sample file (.jsonl)" })).toBeTruthy();
    expect(screen.getByText(/CSV files are not imported/)).toBeTruthy();
    expect(calls[0].search).toBe("");
  });

  it("shows the gold answer format of the calibration pool", async () => {
    const { calls } = renderInProject(<ImportFormat pid="p1" pool="calibration" />, project, {
      "GET /api/v1/projects/p1/items/sample": () => json(200, sample("calibration")),
    });
    const gold = await screen.findByTestId("gold-format");
    expect(JSON.parse(gold.querySelector("pre")!.textContent!)).toEqual({ ground_truth: { answers: { physical_adherence: 5 } } });
    expect(calls[0].search).toBe("?pool=calibration");
  });

  it("writes the sample as one JSON object per line", () => {
    const file = sampleFile(sample("calibration"));
    expect(file.endsWith("\n")).toBe(true);
    expect(file.trim().split("\n").map((l) => JSON.parse(l).external_id)).toEqual(["example-1"]);
  });
});
