// Generates the TypeScript types of the HTTP API from docs/openapi.yaml into
// src/api/schema.gen.ts (openapi-typescript), or with --check, exits non-zero
// when the committed file differs from what the document generates now.
//
//   node scripts/api-types.mjs          # write src/api/schema.gen.ts
//   node scripts/api-types.mjs --check  # compare, write nothing
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const frontend = join(here, "..");
const spec = join(frontend, "../docs/openapi.yaml");
const out = join(frontend, "src/api/schema.gen.ts");

const HEADER = `// Generated from docs/openapi.yaml by scripts/api-types.mjs (npm run gen:api).
// Do not edit: change the document and regenerate; npm run check:api fails when
// this file is stale.
`;

export async function generate() {
  const ast = await openapiTS(pathToFileURL(spec), { alphabetize: false });
  return HEADER + astToString(ast);
}

const check = process.argv.includes("--check");
const fresh = await generate();
if (!check) {
  await writeFile(out, fresh);
  console.log(`wrote ${relative(process.cwd(), out)}`);
} else {
  const committed = await readFile(out, "utf8").catch(() => "");
  if (committed !== fresh) {
    console.error(`${relative(process.cwd(), out)} is stale: docs/openapi.yaml changed. Run npm run gen:api and commit the result.`);
    process.exit(1);
  }
  console.log(`${relative(process.cwd(), out)} matches docs/openapi.yaml`);
}
