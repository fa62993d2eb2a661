// Key coverage: every string of en.json is in zh-CN.json and the other way round, none
// empty, and every key the code names (t("…") calls and "screen.key" literals in the
// sources) is in en.json. A plural key counts when its _one/_other forms are there.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import en from "./en.json";
import zhCN from "./zh-CN.json";

type Tree = { [key: string]: string | Tree };

/** The dotted keys of a resource tree with their strings. */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

/** The placeholders of a string, e.g. ["count", "label"] for "{{count}} of {{label}}". */
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const SRC = join(__dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.(test|gen)\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every key the code names: the argument of t(…), tr(…) and i18n.t(…), and any "screen.key" literal. */
export function keysInCode(text: string, screens: string[]): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![\w.])(?:t|tr|i18n\.t)\(\s*["'`]([A-Za-z]\w*(?:\.\w+)+)["'`]/g)) found.add(m[1]);
  const literal = new RegExp(`["'\`]((?:${screens.join("|")})\\.[A-Za-z0-9_.]+)["'\`]`, "g");
  for (const m of text.matchAll(literal)) if (!/\.(css|tsx?|json|zip|png|svg)$/.test(m[1])) found.add(m[1]);
  return [...found];
}

const enKeys = flatten(en as Tree);
const zhKeys = flatten(zhCN as Tree);

describe("translations", () => {
  it("have every key of en.json in zh-CN.json, not empty, with the same placeholders", () => {
    const problems: string[] = [];
    for (const [k, v] of enKeys) {
      const zh = zhKeys.get(k);
      if (!v.trim()) problems.push(`en.json: ${k} is empty`);
      if (zh === undefined) problems.push(`zh-CN.json: ${k} is missing`);
      else if (!zh.trim()) problems.push(`zh-CN.json: ${k} is empty`);
      else if (placeholders(zh).join() !== placeholders(v).join()) problems.push(`zh-CN.json: ${k} has {{${placeholders(zh)}}}, en.json {{${placeholders(v)}}}`);
    }
    expect(problems).toEqual([]);
  });

  it("have every key of zh-CN.json in en.json", () => {
    expect([...zhKeys.keys()].filter((k) => !enKeys.has(k))).toEqual([]);
  });

  it("have every key the code names in en.json", () => {
    const screens = Object.keys(en);
    const has = (k: string) => enKeys.has(k) || (enKeys.has(`${k}_one`) && enKeys.has(`${k}_other`));
    const missing = sources(SRC).flatMap((path) =>
      keysInCode(readFileSync(path, "utf8"), screens)
        .filter((k) => !has(k))
        .map((k) => `${relative(SRC, path)}: ${k}`),
    );
    expect(missing).toEqual([]);
    // note: the scan itself finds keys, so an empty result is not a scan that found nothing
    expect(keysInCode('t("work.skip"); const k = "legend.general.next";', screens)).toEqual(["work.skip", "legend.general.next"]);
  });

  it("find a key that is not there", () => {
    const screens = Object.keys(en);
    const named = keysInCode('t("work.noSuchKey")', screens);
    expect(named.filter((k) => !enKeys.has(k))).toEqual(["work.noSuchKey"]);
  });
});
