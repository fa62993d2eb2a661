// Adjudication over the whole history, by keyboard alone: after a reviewer
// corrects one label (with notes) and rejects another, the adjudicator sees
// every original, the correction, the rejected label and the consensus state
// of each question; takes one column with its letter, edits one free-text
// answer in the full form, writes a rationale and submits. The ground truth is
// that column with the one edit. Nothing is cut off at 1440×900 or 1280×800,
// and the item's inputs keep a readable width (360 px) beside five columns.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, clipped, viewShot, withArbiter } from "./harness.mjs";
import { PASSWORD, assertNoConsoleProblems, signIn } from "./workflow-steps.mjs";

const shots = join(artifactsDir, "adjudicate");
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
];
const LONG = "the cube floats a little above the sphere for the whole clip, its shadow does not touch the sphere, and the lighting on its top face does not match the scene's key light";
const SCHEMA = {
  version: 1,
  inputs: [{ name: "prompt", type: "text", label: "Prompt" }],
  questions: [
    { key: "score", kind: "likert", label: "How well does the image follow the prompt?", required: true, min: 1, max: 5 },
    { key: "clear", kind: "binary", label: "Is the prompt clear?", required: true },
    { key: "evidence", kind: "text", label: "Evidence" },
  ],
};

async function call(url, token, method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Claims one piece of work in the stage and submits `body(claim)`. */
async function work(url, token, pid, stage, body) {
  const claim = await call(url, token, "POST", `/api/v1/projects/${pid}/queue/next`, { stage });
  return call(url, token, "POST", `/api/v1/projects/${pid}/assignments/${claim.assignment.id}/submit`, body(claim));
}

async function setup(server, api) {
  const { access_token: admin } = await api.loginAdmin();
  const users = {};
  for (const who of ["lead", "ann1", "ann2", "ann3", "reviewer", "adjudicator"]) {
    users[who] = await api.createUser(admin, { email: `${who}@arbiter.test`, name: `${who} person`, password: PASSWORD, can_create_projects: who === "lead" });
    users[who].email = `${who}@arbiter.test`;
    users[who].token = (await api.login(users[who].email, PASSWORD)).access_token;
  }
  const p = await api.request("POST", "/api/v1/projects", {
    token: users.lead.token,
    body: { name: "Adjudicated prompts", schema: SCHEMA, workflow: { overlap: 2, review: "cross", adjudication: "on_disagreement" } },
  });
  const roles = { ann1: ["annotator"], ann2: ["annotator"], ann3: ["annotator"], reviewer: ["reviewer"], adjudicator: ["adjudicator"] };
  for (const [who, r] of Object.entries(roles)) await api.setMemberRoles(admin, p.id, users[who].id, r);
  const res = await fetch(`${server.url}/api/v1/projects/${p.id}/items`, {
    method: "POST",
    headers: { Authorization: `Bearer ${users.lead.token}`, "Content-Type": "application/x-ndjson" },
    body: JSON.stringify({ external_id: "cube", inputs: { prompt: "A red cube resting on a blue sphere" } }) + "\n",
  });
  assert.equal(res.status, 200, await res.text());

  const label = (who, score, evidence) => work(server.url, users[who].token, p.id, "label", () => ({ answers: { score, clear: "yes", evidence } }));
  await label("ann1", 4, `Annotator one: ${LONG}.`);
  await label("ann2", 1, "off topic");
  for (let i = 0; i < 2; i++) {
    await work(server.url, users.reviewer.token, p.id, "review", (c) =>
      c.context.label.answers.score === 4
        ? { verdict: "correct", answers: { score: 3, clear: "yes", evidence: "Corrected: the cube hovers." }, comment: "Too generous for a floating cube.", comments: { score: "3 at most: it hovers" } }
        : { verdict: "reject", comment: "Describes another prompt." },
    );
  }
  await label("ann3", 5, `Annotator three: exactly as asked; ${LONG.slice(0, 60)}.`);
  const last = await work(server.url, users.reviewer.token, p.id, "review", () => ({ verdict: "approve" }));
  assert.equal(last.item_stage, "adjudicate");
  return { users, pid: p.id };
}

/** Table cells cut off, and a table that scrolls sideways (its columns would hide under the sticky Final column). */
async function cutOff(page, selector) {
  const sideways = await page.evaluate(() =>
    [...document.querySelectorAll(".labels-scroll")].filter((sc) => sc.scrollWidth > sc.clientWidth + 1).map((sc) => `the table scrolls sideways (${sc.scrollWidth} > ${sc.clientWidth})`),
  );
  return [...(await clipped(page, selector)), ...sideways];
}

const RATIONALE = "Annotator one read the score right; the evidence now measures the gap.";
const finalOf = (page, key) => page.locator(`.labels-table tr[data-question="${key}"] .final-cell`).textContent();

test("adjudicate by keyboard: every original, correction and consensus state shown; one column taken, one answer edited, submitted", (t) =>
  withArbiter(t, async ({ server, api, browser }) => {
    await mkdir(shots, { recursive: true });
    const { users, pid } = await setup(server, api);

    for (const vp of VIEWPORTS) {
      const { context, page, problems } = await signIn(browser, server.url, users.adjudicator.email, vp);
      await page.goto(`/projects/${pid}/adjudicate`);
      const table = page.getByRole("table", { name: "Labels per question" });
      await table.waitFor();

      // Five columns: two originals with their reviews, the correction, the rejected label, the consensus.
      const heads = await page.locator(".labels-table th.label-col").allTextContents();
      assert.equal(heads.length, 5, heads.join(" | "));
      const col = (re) => heads.findIndex((h) => re.test(h));
      const first = col(/Annotator one|corrected/);
      assert.ok(first >= 0 && /corrected/.test(heads[first]) && /Too generous for a floating cube/.test(heads[first]), heads[first]);
      assert.match(heads[first + 1], /correction of/);
      assert.ok(heads.some((h) => /rejected/.test(h) && /not counted/.test(h) && /Describes another prompt/.test(h)), heads.join(" | "));
      assert.match(heads[4], /Consensus/);
      const row = (key) => page.locator(`.labels-table tr[data-question="${key}"]`);
      assert.equal(await row("score").getAttribute("data-state"), "no_consensus");
      assert.equal(await row("clear").getAttribute("data-state"), "unanimous");
      assert.equal(await row("evidence").getAttribute("data-state"), "text");
      assert.match(await row("score").textContent(), /no consensus/);
      assert.match(await row("score").textContent(), /3 at most: it hovers/);
      // The first column is the label as submitted (4, its own words), not the correction.
      const firstCells = await page.locator(`.labels-table tbody tr td.label-cell:nth-child(${first + 3}) .val`).allTextContents();
      assert.match(firstCells[0], /4/);
      assert.match(firstCells[2], /^Annotator one:/);
      await viewShot(page, shots, "01-history", vp);
      assert.deepEqual(await cutOff(page, ".labels-table .val, .labels-table .final-cell, .labels-table th"), []);
      // With five columns the item stays readable beside (or above) the table.
      const pane = await page.locator(".inputs-pane").evaluate((el) => el.getBoundingClientRect().width);
      assert.ok(pane >= 360, `the inputs pane is ${Math.round(pane)} px wide at ${vp.width}×${vp.height} with ${heads.length} columns`);

      // ? lists each column's key.
      await page.keyboard.press("Shift+Slash");
      const legend = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await legend.waitFor();
      const letter = await page.locator(".labels-table th.label-col").nth(first).getAttribute("data-column");
      assert.match(await legend.textContent(), new RegExp(`${letter}Take every answer of [^,]+, free text included`));
      await viewShot(page, shots, "02-legend", vp);
      await page.keyboard.press("Escape");
      await legend.waitFor({ state: "detached" });

      if (vp !== VIEWPORTS.at(-1)) {
        await context.close();
        continue;
      }
      // Take the first label's original column whole with its letter: the free text comes along.
      await page.keyboard.press(letter);
      assert.match(await finalOf(page, "score"), /4/);
      assert.match(await finalOf(page, "evidence"), /^Annotator one: the cube floats/);
      assert.deepEqual(await cutOff(page, ".labels-table .final-cell"), []);
      await viewShot(page, shots, "03-column-taken", vp);

      // Edit one answer in the full form: e, move to the evidence, rewrite it, use these answers.
      await page.keyboard.press("e");
      await page.waitForFunction(() => document.activeElement?.matches(".q-card"));
      for (let i = 0; i < 2; i++) await page.keyboard.press("j");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.activeElement?.tagName === "TEXTAREA");
      await page.keyboard.press("Control+A");
      await page.keyboard.type("The cube hovers 2 cm above the sphere; its shadow never touches it.");
      await page.keyboard.press("Escape");
      await viewShot(page, shots, "04-edit", vp);
      await page.keyboard.press("Control+Enter");
      await table.waitFor();
      assert.match(await finalOf(page, "evidence"), /^The cube hovers 2 cm above the sphere/);
      assert.match(await finalOf(page, "score"), /4/);

      await page.keyboard.press("r");
      await page.waitForFunction(() => document.activeElement?.id === "adj-rationale");
      await page.keyboard.type(RATIONALE);
      await page.keyboard.press("Escape");
      await viewShot(page, shots, "05-ready", vp);
      await page.keyboard.press("Control+Enter");
      await page.getByTestId("queue-empty").waitFor();
      assertNoConsoleProblems(problems, `adjudicator ${vp.width}`);
      await context.close();
    }

    const items = await api.request("GET", `/api/v1/projects/${pid}/items?limit=10`, { token: users.lead.token });
    const gt = items.items[0].ground_truth;
    assert.equal(gt.provenance.kind, "adjudicated");
    assert.equal(gt.provenance.rationale, RATIONALE);
    assert.deepEqual(gt.answers, { score: 4, clear: "yes", evidence: "The cube hovers 2 cm above the sphere; its shadow never touches it." });
  }));
