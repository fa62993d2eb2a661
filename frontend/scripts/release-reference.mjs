// The reference a release is measured against: DuckDB reads the records of a release's
// jsonl files and writes them once as parquet (zstd) and once as JSON lines, on one thread
// per core, and prints the wall time in milliseconds.
//
//   node frontend/scripts/release-reference.mjs OUT_DIR FILE.jsonl [FILE.jsonl ...]
import { DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";

const [out, ...files] = process.argv.slice(2);
if (!out || files.length === 0) {
  console.error("usage: release-reference.mjs OUT_DIR FILE.jsonl [FILE.jsonl ...]");
  process.exit(2);
}
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const began = performance.now();
const db = await (await DuckDBInstance.create(":memory:")).connect();
const source = `read_json_auto([${files.map(quote).join(", ")}], format = 'newline_delimited', maximum_object_size = 67108864)`;
await db.run(`CREATE TEMP TABLE records AS SELECT * FROM ${source}`);
await db.run(`COPY records TO ${quote(join(out, "records.parquet"))} (FORMAT parquet, COMPRESSION zstd)`);
await db.run(`COPY records TO ${quote(join(out, "records.jsonl"))} (FORMAT json)`);
const rows = (await db.runAndReadAll("SELECT count(*) FROM records")).getRows()[0][0];
console.log(JSON.stringify({ ms: performance.now() - began, records: Number(rows) }));
