// The Balance, Report and Judges pages on a small project built through the
// API: items imported with ground truth (so they are done), two models'
// predictions, balance targets; each page is rendered with its charts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { screenshot, withArbiter } from "./harness.mjs";
import { PASSWORD, importNdjson, signIn } from "./workflow-steps.mjs";

const schema = {
  version: 1,
  title: "Speech check",
  inputs: [{ name: "prompt", type: "text", label: "Prompt" }],
  questions: [
    { key: "clarity", kind: "binary", label: "Clear speech", short_label: "Clarity", required: true },
    { key: "noise", kind: "binary", label: "Background noise", short_label: "Noise", required: true, yes_means: "defect" },
    { key: "pace", kind: "binary", label: "Natural pace", short_label: "Pace", required: true },
    {
      key: "mos",
      kind: "likert",
      label: "Overall quality",
      short_label: "MOS",
      required: true,
      min: 1,
      max: 5,
      anchors: [
        { value: 1, label: "Bad" },
        { value: 5, label: "Excellent" },
      ],
    },
  ],
};

const DIMS = ["clarity", "noise", "pace"];
const yn = (satisfied, key) => ((key === "noise" ? !satisfied : satisfied) ? "yes" : "no");

/** Item i: which dimensions are satisfied (a varied but fixed pattern) and its MOS (higher for later generators). */
function truth(i) {
  const sat = { clarity: i % 4 !== 0, noise: i % 3 !== 1, pace: i % 5 < 3 };
  const mos = 1 + (i % 3) + ((i * 7) % 3);
  return { sat, mos };
}

function answers(sat, mos) {
  return Object.fromEntries([...DIMS.map((k) => [k, yn(sat[k], k)]), ["mos", mos]]);
}

/** Waits until the chart's SVG has drawn its axes and marks. */
async function chartDrawn(page, testId) {
  const chart = page.getByTestId(testId);
  await chart.scrollIntoViewIfNeeded();
  await chart.locator("svg path").first().waitFor({ state: "attached" });
  const box = await chart.locator("svg").boundingBox();
  assert.ok(box && box.width > 100 && box.height > 100, `${testId} has a size`);
  assert.ok((await chart.locator("svg path").count()) > 3, `${testId} draws marks`);
}

test("balance, report and judges pages render their figures with charts", async (t) => {
  await withArbiter(t, async ({ server, api, browser }) => {
    const { access_token: admin } = await api.loginAdmin();
    await api.createUser(admin, { email: "lead@arbiter.test", name: "Lena Lead", password: PASSWORD, can_create_projects: true });
    const { access_token: lead } = await api.login("lead@arbiter.test", PASSWORD);
    const p = await api.request("POST", "/api/v1/projects", { token: lead, body: { name: "Speech balance", schema } });

    const N = 30;
    const items = [];
    const preds = [];
    for (let i = 0; i < N; i++) {
      const { sat, mos } = truth(i);
      items.push({
        external_id: `tts-${String(i).padStart(2, "0")}`,
        inputs: { prompt: `Say sentence ${i} calmly.` },
        meta: {
          generator: ["g1", "g2", "g3"][i % 3],
          corpus: ["read", "spontaneous"][i % 2],
          // the first three items are a D3-Omni seed and two perturbed negatives
          ...(i < 3 ? { seed_id: "seed-0", is_seed: i === 0, flip_set: i === 0 ? [] : [DIMS[i]], operator: i === 0 ? undefined : "gain_modulation" } : {}),
        },
        ground_truth: { answers: answers(sat, mos), provenance: "constructed" },
      });
      // m1 flips one answer in seven and is off by one on every third MOS; m2 flips one in three and scatters
      const m1 = Object.fromEntries(DIMS.map((k, j) => [k, (i * 3 + j) % 7 === 0 ? !sat[k] : sat[k]]));
      const m2 = Object.fromEntries(DIMS.map((k, j) => [k, (i * 3 + j) % 3 === i % 3 ? !sat[k] : sat[k]]));
      const off = [0, 1, -1, 2, -2][i % 5];
      preds.push({ external_id: items[i].external_id, model: "judge-m1", answers: answers(m1, i % 3 === 0 ? Math.min(5, mos + 1) : mos) });
      preds.push({ external_id: items[i].external_id, model: "judge-m2", answers: answers(m2, Math.max(1, Math.min(5, mos + off))) });
    }
    // two items still waiting for labels, so the report has more than one stage
    items.push({ external_id: "open-1", inputs: { prompt: "Say hello." }, meta: { generator: "g1", corpus: "read" } });
    items.push({ external_id: "open-2", inputs: { prompt: "Say goodbye." }, meta: { generator: "g2", corpus: "read" } });
    await importNdjson(server, lead, `/api/v1/projects/${p.id}/items`, items);
    await importNdjson(server, lead, `/api/v1/projects/${p.id}/predictions`, preds);
    await api.request("PATCH", `/api/v1/projects/${p.id}`, { token: lead, body: { balance: { ratio: 0.5, spread: 3, by: "meta.generator" } } });

    const { page, errors } = await signIn(browser, server.url, "lead@arbiter.test");
    let step = 0;
    const shot = (name) => screenshot(page, `insight-${String(++step).padStart(2, "0")}-${name}`);

    // Balance: the verdict, what is missing, and every chart. The chart library is held back
    // until the figures are there: the chart cards say they are drawing instead of standing empty.
    let release;
    const held = new Promise((r) => (release = r));
    const chartLibrary = /\/assets\/ChartView-[^/]*\.js$/;
    await page.route(chartLibrary, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/projects/${p.id}/balance`);
    await page.getByTestId("balance-computed").filter({ hasText: /^Computed/ }).waitFor({ timeout: 30_000 });
    await page.getByRole("status").filter({ hasText: "Computing newer figures" }).waitFor({ state: "detached", timeout: 30_000 });
    await page.locator(".chart-card .chart-loading").first().waitFor();
    assert.match(await page.locator(".chart-card .chart-loading").first().textContent(), /Drawing the chart/);
    await shot("balance-charts-loading");
    release();
    const verdict = await page.getByTestId("readiness-verdict").textContent();
    assert.match(verdict, /^(Ready|Not ready)$/);
    for (const id of ["chart-yes-no", "chart-ratio", "chart-histogram", "chart-correlation", "chart-dist-mos", "chart-meta"]) await chartDrawn(page, id);
    const gen = page.getByRole("table", { name: "Counts by generator" });
    assert.match(await gen.getByRole("row", { name: /g1/ }).textContent(), /^g1\d+/);
    await shot("balance");

    // the lead tightens ρ: every question then needs more No items, and the page says not ready
    await page.getByLabel("No/Yes ratio ρ").fill("5");
    await page.getByRole("button", { name: "Save targets" }).click();
    await page.getByText("Targets saved.").waitFor();
    await page.getByRole("list", { name: "Questions that need more No items" }).waitFor();
    assert.equal(await page.getByTestId("readiness-verdict").textContent(), "Not ready");
    assert.equal(await page.getByRole("list", { name: "Questions that need more No items" }).getByRole("listitem").count(), 3);
    await page.getByTestId("readiness").scrollIntoViewIfNeeded();
    await shot("balance-not-ready");

    // Report
    await page.getByRole("link", { name: "Report", exact: true }).click();
    await page.getByTestId("report-computed").filter({ hasText: "Computed" }).waitFor({ timeout: 30_000 });
    for (const id of ["chart-stages", "chart-provenance", "chart-labels-per-item", "chart-score-mos"]) {
      if ((await page.getByTestId(id).count()) > 0) await chartDrawn(page, id);
    }
    await chartDrawn(page, "chart-stages");
    assert.match(await page.getByTestId("chart-stages").textContent(), /Done/);
    await shot("report");

    // Judges: a leaderboard per group with interval bars, and the scatter
    await page.getByRole("link", { name: "Judges", exact: true }).click();
    const board = page.getByRole("table", { name: "Leaderboard All binary questions" });
    await board.waitFor({ timeout: 60_000 });
    const order = await board.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-model")));
    assert.deepEqual(order, ["judge-m1", "judge-m2"]);
    await chartDrawn(page, "chart-judges-binary");
    await chartDrawn(page, "chart-scatter");
    assert.equal(await page.getByLabel("Model", { exact: true }).inputValue(), "judge-m1");
    await shot("judges");
    // the dimension-coupling heatmap of the best model, then the No side of the other
    await chartDrawn(page, "chart-coupling");
    assert.equal(await page.getByLabel("Judge", { exact: true }).inputValue(), "judge-m1");
    assert.match(await page.getByTestId("coupling-summary").textContent(), /^judge-m1: \d+ coupled pairs? \(r > 0\.6\), \d+ strongly entangled \(r > 0\.8\) of 3\.$/);
    await page.getByLabel("Judge", { exact: true }).selectOption("judge-m2");
    await page.getByLabel("Matrix", { exact: true }).selectOption("no_side");
    assert.equal(await page.getByTestId("chart-coupling").getAttribute("aria-label"), "No side dimension-coupling matrix of judge-m2 over the binary questions");
    await chartDrawn(page, "chart-coupling");
    await shot("judges-coupling");
    await page.getByLabel("System key").fill("generator");
    await page.getByRole("button", { name: "Apply" }).click();
    const systems = page.getByRole("table", { name: "System-level correlation" });
    await systems.waitFor({ timeout: 60_000 });
    assert.match(await systems.getByRole("row", { name: /judge-m1/ }).textContent(), /judge-m13\d\.\d{3}/, "three systems and their Pearson r");
    await page.getByLabel("Model", { exact: true }).selectOption("judge-m2");
    await chartDrawn(page, "chart-scatter");
    await shot("judges-system");

    // Item page: the seed family of a negative, with links to the seed and the other negative
    const listed = await api.request("GET", `/api/v1/projects/${p.id}/items?limit=10`, { token: lead });
    const neg = listed.items.find((it) => it.external_id === "tts-01");
    await page.goto(`/projects/${p.id}/items?item=${neg.id}`);
    const family = page.getByRole("region", { name: "Seed family" });
    await family.waitFor({ timeout: 30_000 });
    assert.equal(await family.getByTestId("family-summary").textContent(), "Seed seed-0: 1 seed, 2 perturbed negatives.");
    assert.equal(await family.locator("tbody tr").first().getAttribute("data-member"), "tts-00");
    await family.getByRole("link", { name: "tts-00" }).click();
    await page.locator('[data-testid="item-detail"] h2').filter({ hasText: "tts-00" }).waitFor();
    await page.getByRole("region", { name: "Seed family" }).scrollIntoViewIfNeeded();
    await shot("item-family");

    assert.deepEqual(errors, [], "no console errors");
  });
});
