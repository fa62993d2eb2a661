// Calibration, agreement and quality in the browser: a lead starts a round over
// the calibration pool, three annotators label it with the keyboard, the lead
// closes it and reads the report (charts drawn, screenshots saved) and leaves a
// note, an annotator reads it beside their answers; the Agreement tab of a
// finished project renders. Every page runs under the Content-Security-Policy
// without a violation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, withArbiter } from "./harness.mjs";
import { PASSWORD, assertNoConsoleErrors, labelWithKeyboard, saveShot, signIn } from "./workflow-steps.mjs";

const shots = join(artifactsDir, "calibration");
const ANNOTATORS = ["ann1", "ann2", "ann3"];
const NAMES = { lead: "Lena Lead", ann1: "Ana Annotator", ann2: "Ben Annotator", ann3: "Cleo Annotator" };
const NOTE = "Clip 2: the gripper passes through the cube at 0:02, so physical adherence is a 2 at most.";

const poolItem = (i) => ({
  external_id: `pool-${i}`,
  inputs: {
    video: "media/robot_rollout.mp4",
    first_frame: "media/robot_first_frame.png",
    instruction: ["Pick up the red cube and place it in the bowl.", "Push the blue block to the left edge.", "Stack the green cube on the red one."][i - 1],
    generator: "model-y",
  },
  ground_truth: { answers: { physical_adherence: 4, instruction_alignment: 4 } },
});

/** RoboJudge answers submitted through the API for the first round, spread on purpose. */
const apiAnswers = (who, i) => {
  const spread = { ann1: 0, ann2: 2, ann3: -2 }[who];
  return {
    physical_adherence: Math.max(1, Math.min(5, 3 + spread + (i % 2))),
    pa_checklist: { agent_consistency: 2, scene_consistency: 1, interaction_realism: 2 },
    pa_evidence: "The arm moves smoothly and contacts hold.",
    instruction_alignment: Math.max(1, Math.min(5, 3 - spread)),
    ia_checklist: { agent_match: 2, object_correctness: 2, goal_completion: 1 },
    ia_evidence: "The cube ends in the bowl as asked.",
  };
};

async function importLines(baseURL, token, pid, lines, query = "") {
  const res = await fetch(`${baseURL}/api/v1/projects/${pid}/items${query}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  });
  assert.equal(res.status, 200, await res.clone().text());
}

/** Claims and submits every item of the caller's open rounds through the API, pass after pass (the time goes with the first). */
async function labelRoundByApi(api, token, pid, who) {
  let i = 0;
  for (let guard = 0; guard < 40; guard++) {
    const claim = await api.request("POST", `/api/v1/projects/${pid}/queue/next`, { token, body: { stage: "calibration" } });
    if (!claim) return;
    const shown = new Set(claim.item.schema.questions.map((q) => q.key));
    const answers = Object.fromEntries(Object.entries(apiAnswers(who, i)).filter(([k]) => shown.has(k)));
    const later = (claim.item.pass?.number ?? 1) > 1;
    const res = await api.request("POST", `/api/v1/projects/${pid}/assignments/${claim.assignment.id}/submit`, {
      token,
      body: { answers, time_spent_ms: later ? 0 : 20_000 + 1000 * i },
    });
    if (!res.next_pass) i++;
  }
  throw new Error("the calibration queue never ran out");
}

/** Collects Content-Security-Policy violations of every page the context opens. */
async function watchCSP(context) {
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}
const violations = (page) => page.evaluate(() => window.__cspViolations ?? []);

/** Waits until the chart with this test id has drawn an SVG with marks in it. */
async function chartDrawn(page, testId) {
  const chart = page.getByTestId(testId);
  await chart.waitFor();
  await page.waitForFunction((id) => document.querySelector(`[data-testid=${id}] svg path, [data-testid=${id}] svg rect`), testId);
  return chart;
}

test("calibration: a lead runs a round, annotators label it by keyboard, the report and feedback; agreement of a finished project", (t) =>
  withArbiter(t, async ({ server, api, browser }) => {
    await mkdir(shots, { recursive: true });
    const { access_token: admin } = await api.loginAdmin();
    const users = {};
    for (const who of ["lead", ...ANNOTATORS]) {
      users[who] = await api.createUser(admin, { email: `${who}@arbiter.test`, name: NAMES[who], password: PASSWORD, can_create_projects: who === "lead" });
      users[who].email = `${who}@arbiter.test`;
    }
    const { access_token: lead } = await api.login(users.lead.email, PASSWORD);
    const rj = await api.request("POST", "/api/v1/projects", { token: lead, body: { name: "RoboJudge calibration", template: "robojudge", workflow: { overlap: 1 } } });
    for (const who of ANNOTATORS) await api.setMemberRoles(admin, rj.id, users[who].id, ["annotator"]);
    const schema = (await api.request("GET", `/api/v1/projects/${rj.id}`, { token: lead })).schema;
    await importLines(server.url, lead, rj.id, [1, 2, 3].map(poolItem), "?pool=calibration");

    // Round 1 happens through the API, so the report has a trend to draw.
    const r1 = await api.request("POST", `/api/v1/projects/${rj.id}/calibration-rounds`, {
      token: lead,
      body: { name: "First look", sample: 3, participants: ANNOTATORS.map((w) => users[w].email), pass: { metric: "accuracy_vs_gold", threshold: 0.5, questions: [] } },
    });
    for (const who of ANNOTATORS) {
      const { access_token } = await api.login(users[who].email, PASSWORD);
      await labelRoundByApi(api, access_token, rj.id, who);
    }
    await api.request("POST", `/api/v1/projects/${rj.id}/calibration-rounds/${r1.id}/close`, { token: lead });

    // The lead starts round 2 in the browser: the three pool items, everyone, pass on accuracy against gold.
    const L = await signIn(browser, server.url, users.lead.email);
    await watchCSP(L.context);
    await L.page.goto(`/projects/${rj.id}/calibration`);
    await L.page.getByRole("link", { name: "1. First look" }).waitFor();
    await L.page.getByLabel("Name").fill("Second pass");
    await L.page.getByLabel("These items").check();
    await L.page.getByLabel("External ids").fill("pool-1\npool-2\npool-3");
    for (const who of ANNOTATORS) await L.page.getByRole("checkbox", { name: new RegExp(NAMES[who]) }).check();
    await L.page.getByLabel("Threshold").fill("0.6");
    await L.page.getByRole("group", { name: "Questions that count" }).getByRole("checkbox", { name: "PA", exact: true }).check();
    await saveShot(L.page, join(shots, "01-new-round.png"));
    await L.page.getByRole("button", { name: "Start round" }).click();
    await L.page.getByRole("heading", { name: "Round 2: Second pass" }).waitFor();
    assert.equal(await L.page.getByRole("progressbar", { name: "Round completion" }).getAttribute("aria-valuenow"), "0");

    // Three annotators open My rounds and label the round with the keyboard; Cleo scores one question lower.
    for (const who of ANNOTATORS) {
      const A = await signIn(browser, server.url, users[who].email);
      await watchCSP(A.context);
      await A.page.goto(`/projects/${rj.id}/rounds`);
      const row = A.page.getByRole("row", { name: /Second pass/ });
      await row.waitFor();
      await row.getByRole("link", { name: "Annotate" }).click();
      const variantFor = who === "ann3" ? (q) => (q.key === "physical_adherence" ? 1 : 0) : () => 0;
      const n = await labelWithKeyboard(A.page, schema, variantFor, who === "ann1" ? join(shots, "02-annotate-calibration.png") : undefined);
      assert.equal(n, 3, `${who} labeled the three items`);
      assert.equal(await A.page.getByTestId("work").getAttribute("data-stage"), "calibration");
      assert.deepEqual(await violations(A.page), [], `no CSP violation for ${who}`);
      assertNoConsoleErrors(A.errors, who);
      await A.context.close();
    }

    // The lead watches completion reach 100 %, closes the round and reads the report.
    await L.page.waitForFunction(() => document.querySelector('[role=progressbar][aria-label="Round completion"]')?.getAttribute("aria-valuenow") === "100", null, { timeout: 20_000 });
    await L.page.getByRole("button", { name: "Close round" }).click();
    await L.page.getByRole("button", { name: "Close now" }).click();
    await L.page.getByRole("table", { name: "Per annotator" }).waitFor();
    for (const id of ["chart-scores", "chart-alpha", "chart-matrix", "chart-trend"]) await chartDrawn(L.page, id);
    const scores = await L.page.getByTestId("chart-scores").textContent();
    assert.match(scores, /pass 0\.60/, "the pass threshold is drawn");
    const trend = await L.page.getByTestId("chart-trend").textContent();
    assert.match(trend, /Round 1/);
    assert.match(trend, /Round 2/);
    assert.match(trend, /MAD/);
    const table = await L.page.getByRole("table", { name: "Per annotator" }).textContent();
    for (const who of ANNOTATORS) assert.ok(table.includes(NAMES[who]), `${who} in the report`);
    await saveShot(L.page, join(shots, "03-report.png"));
    await L.page.getByTestId("chart-matrix").screenshot({ path: join(shots, "04-matrix.png") });
    await L.page.getByTestId("chart-trend").screenshot({ path: join(shots, "05-trend.png") });

    // A note on the most disputed pair: Cleo's physical adherence.
    const disputed = L.page.getByRole("table", { name: "Most disputed" });
    await disputed.getByRole("button", { name: "Add note" }).first().click();
    await L.page.getByLabel("Item").selectOption({ label: "pool-2" });
    await L.page.getByLabel("Question", { exact: true }).selectOption("physical_adherence");
    await L.page.getByRole("textbox", { name: "Note" }).fill(NOTE);
    await L.page.getByRole("button", { name: "Save note" }).click();
    await L.page.getByText(/Note saved on pool-2/).waitFor();
    assert.deepEqual(await violations(L.page), [], "no CSP violation on the lead's pages");
    assertNoConsoleErrors(L.errors, "lead");

    // Cleo reads her answers beside gold, and the note.
    {
      const A = await signIn(browser, server.url, users.ann3.email);
      await watchCSP(A.context);
      await A.page.goto(`/projects/${rj.id}/rounds`);
      await A.page.getByRole("row", { name: /Second pass/ }).getByRole("link", { name: "Results and feedback" }).click();
      await A.page.getByText(NOTE).waitFor();
      const item = A.page.getByRole("region", { name: "Item 2" });
      const row = item.getByRole("row", { name: /Physical Adherence/ }).first();
      assert.match(await row.textContent(), /\(Gold\)/);
      assert.match(await row.textContent(), /Differs/);
      await saveShot(A.page, join(shots, "06-my-feedback.png"));
      assert.deepEqual(await violations(A.page), [], "no CSP violation on My rounds");
      assertNoConsoleErrors(A.errors, "ann3 feedback");
      await A.context.close();
    }

    // A finished D3 project: two items, three labels each; the lead opens Agreement and Quality.
    const d3 = await api.request("POST", "/api/v1/projects", { token: lead, body: { name: "D3 finished", template: "d3omni-t2i", workflow: { overlap: 3 } } });
    for (const who of ANNOTATORS) await api.setMemberRoles(admin, d3.id, users[who].id, ["annotator"]);
    const d3Schema = (await api.request("GET", `/api/v1/projects/${d3.id}`, { token: lead })).schema;
    await importLines(server.url, lead, d3.id, [1, 2].map((i) => ({ external_id: `d3-${i}`, inputs: { prompt: `A red apple (${i})`, image: "media/apple.png", generator: "model-x" } })));
    for (const who of ANNOTATORS) {
      const { access_token } = await api.login(users[who].email, PASSWORD);
      for (let i = 0; ; i++) {
        const claim = await api.request("POST", `/api/v1/projects/${d3.id}/queue/next`, { token: access_token, body: { stage: "label" } });
        if (!claim) break;
        const answers = Object.fromEntries(d3Schema.questions.map((q, k) => [q.key, who === "ann3" && i === 0 && k < 4 ? "no" : "yes"]));
        await api.request("POST", `/api/v1/projects/${d3.id}/assignments/${claim.assignment.id}/submit`, { token: access_token, body: { answers, time_spent_ms: 15_000 } });
      }
    }
    await L.page.goto(`/projects/${d3.id}/agreement`);
    await L.page.getByRole("table", { name: "Nominal questions" }).waitFor({ timeout: 30_000 });
    await L.page.waitForFunction(() => !document.querySelector(".badge-computing"), null, { timeout: 30_000 });
    await chartDrawn(L.page, "chart-alpha");
    await chartDrawn(L.page, "chart-matrix");
    assert.match(await L.page.getByTestId("agreement-computed").textContent(), /from 6 labels/);
    await saveShot(L.page, join(shots, "07-agreement.png"));
    await L.page.goto(`/projects/${d3.id}/quality`);
    await L.page.getByRole("table", { name: "Per annotator" }).waitFor();
    await chartDrawn(L.page, "chart-yes-rate");
    await saveShot(L.page, join(shots, "08-quality.png"));
    assert.deepEqual(await violations(L.page), [], "no CSP violation on Agreement and Quality");
    assertNoConsoleErrors(L.errors, "lead (agreement)");
    await L.context.close();
  }));
