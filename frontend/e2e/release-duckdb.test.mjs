// DuckDB reads every parquet file of an hf release and returns, row by row,
// the records of the jsonl files of the same release.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { startArbiter } from "./harness.mjs";

const clips = ["DROID/pick/episode_1", "DROID/pick/episode_2", "EgoDex/push/episode_7", "EgoDex/push/episode_8"];

/** RoboJudge items imported with rule ground truth, so they are done at once. */
function items(n) {
  const lines = [];
  for (let i = 0; i < n; i++) {
    lines.push(
      JSON.stringify({
        external_id: `rj-${i}`,
        inputs: { video: `media/v${i}.mp4`, first_frame: `media/f${i}.png`, instruction: `Move block ${i} "left" — carefully`, generator: `gen-${i % 3}` },
        meta: { source_clip: clips[i % clips.length], take: i, tags: ["a", i % 2 ? "odd" : "even"] },
        ground_truth: {
          answers: {
            physical_adherence: 1 + (i % 5),
            pa_checklist: { agent_consistency: i % 3, scene_consistency: 2, interaction_realism: (i + 1) % 3 },
            pa_evidence: `Contact at frame ${i}.`,
            instruction_alignment: 1 + ((i + 2) % 5),
            ia_checklist: { agent_match: 2, object_correctness: i % 3, goal_completion: 1 },
            ia_evidence: `Goal ${i % 2 ? "reached" : "missed"}.`,
          },
          provenance: i % 2 ? "rule" : "constructed",
          note: i % 4 === 0 ? `note ${i}` : undefined,
        },
      }),
    );
  }
  return lines.join("\n") + "\n";
}

/** JSON-like values: bigint as number, and null where a field is absent. */
function plain(v) {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** Deep equality where a missing key equals null. */
function same(a, b, at = "") {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    assert.deepEqual(b, a, `differs at ${at || "."}`);
    return;
  }
  if (Array.isArray(a) !== Array.isArray(b)) assert.fail(`differs at ${at}: array and object`);
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) same(a[k], b[k], `${at}.${k}`);
}

/** The hf row a jsonl record should be: meta as canonical JSON text, the rest as it is. */
function expectedRow(rec) {
  const { id, external_id, split, status, inputs, meta, answers, normalized, provenance, agreement, drop_reason } = rec;
  return { id, external_id, split, status, inputs, meta: JSON.stringify(meta), answers, normalized, provenance, agreement, drop_reason };
}

test("DuckDB reads the hf parquet files as the jsonl records", async (t) => {
  const server = await startArbiter();
  const dir = await mkdtemp(join(tmpdir(), "arbiter-duckdb-"));
  t.after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const { access_token: token } = await server.api.loginAdmin();
  const p = await server.api.request("POST", "/api/v1/projects", { token, body: { name: "DuckDB", template: "robojudge" } });
  const res = await fetch(`${server.url}/api/v1/projects/${p.id}/items`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: items(60),
  });
  const report = await res.json();
  assert.equal(report.imported, 60, JSON.stringify(report.errors?.slice(0, 2)));
  const base = `/api/v1/projects/${p.id}/releases`;
  let rel = await server.api.request("POST", base, {
    token,
    body: { name: "v1", formats: ["jsonl", "hf"], options: { split_ratios: "train=0.7,test=0.3", cluster_key: "source_clip", row_group_rows: 100 } },
  });
  for (let i = 0; rel.status !== "done" && rel.status !== "failed" && i < 600; i++) {
    await new Promise((r) => setTimeout(r, 100));
    rel = await server.api.request("GET", `${base}/${rel.id}`, { token });
  }
  assert.equal(rel.status, "done", rel.error);
  const fetchFile = async (path) => {
    const r = await fetch(`${server.url}${base}/${rel.id}/files/${path}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(r.status, 200, path);
    return Buffer.from(await r.arrayBuffer());
  };
  const splits = Object.keys(rel.manifest.records.by_split);
  assert.deepEqual(splits.sort(), ["test", "train"]);
  const db = await (await DuckDBInstance.create(":memory:")).connect();
  let rows = 0;
  for (const split of splits) {
    const parquet = join(dir, `${split}.parquet`);
    await writeFile(parquet, await fetchFile(`data/${split}-00000-of-00001.parquet`));
    const records = (await fetchFile(`jsonl/${split}.jsonl`)).toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
    const reader = await db.runAndReadAll(`SELECT * EXCLUDE (file_row_number) FROM read_parquet('${parquet}', file_row_number = true) ORDER BY file_row_number`);
    const got = reader.getRowObjectsJS().map(plain);
    assert.equal(got.length, records.length, `${split}: rows`);
    assert.equal(got.length, rel.manifest.records.by_split[split]);
    records.forEach((rec, i) => same(expectedRow(rec), got[i], `${split}[${i}]`));
    rows += got.length;
  }
  assert.equal(rows, 60);
});
