// The annotator's, reviewer's and adjudicator's screens at the laptop sizes
// people work at (1440 × 900 and 1280 × 800): nothing important is cut off
// (long evidence in adjudication, the Final and Ground truth columns, the
// review table), `?` opens the shortcut legend on every work page, a pairwise
// form is answered with a/b/t and Enter alone with the project's guidelines
// open above it on a first visit (Shift+G hides them), media references in
// item text render, and no page logs a console warning or error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, clipped, viewShot, withArbiter } from "./harness.mjs";
import { PASSWORD, assertNoConsoleProblems, signIn } from "./workflow-steps.mjs";

const shots = join(artifactsDir, "annotator-screens");
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
];
const EVIDENCE = [
  "The gripper closes on the cube at 0:01.2 and the cube lifts with it; no interpenetration with the table, the shadow follows the cube, and the bowl keeps its shape through the whole clip.",
  "Contact looks plausible but the cube slides a few millimetres through the gripper's left finger at 0:01.4 before the lift; the table edge flickers once near the end, otherwise the scene is stable.",
  "The cube is picked, but the bowl moves by itself at 0:00.8 without contact and the gripper's right finger bends through the cube during the grasp; the background texture swims in the last second.",
];

/** Claims and submits every label this person can get in the project, with answers from `answersFor(i)`. */
async function labelByApi(url, token, pid, answersFor) {
  for (let i = 0; ; ) {
    const res = await fetch(`${url}/api/v1/projects/${pid}/queue/next`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ stage: "label" }),
    });
    if (res.status === 204) return i;
    assert.equal(res.status, 200, await res.clone().text());
    const claim = await res.json();
    // A form in passes takes the shown pass's answers; the next claim is the same item's next pass.
    const shown = new Set(claim.item.schema.questions.map((q) => q.key));
    const answers = Object.fromEntries(Object.entries(answersFor(i)).filter(([k]) => shown.has(k)));
    const sub = await fetch(`${url}/api/v1/projects/${pid}/assignments/${claim.assignment.id}/submit`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ answers, time_spent_ms: 30_000 }),
    });
    assert.equal(sub.status, 200, await sub.clone().text());
    if (!(await sub.json()).next_pass) i++;
  }
}

async function importItems(url, token, pid, items) {
  const res = await fetch(`${url}/api/v1/projects/${pid}/items`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: items.map((it) => JSON.stringify(it)).join("\n") + "\n",
  });
  assert.equal(res.status, 200, await res.clone().text());
}

const rjAnswers = (who) => (i) => ({
  physical_adherence: [4, 3, 2][who],
  pa_checklist: { agent_consistency: 2, scene_consistency: who === 2 ? 1 : 2, interaction_realism: 1 },
  pa_evidence: `${EVIDENCE[who]} (item ${i + 1})`,
  instruction_alignment: 4,
  ia_checklist: { agent_match: 2, object_correctness: 2, goal_completion: who ? 1 : 2 },
  ia_evidence: `Instruction followed: the ${who ? "green" : "red"} cube ends where it was asked to go; ${EVIDENCE[(who + 1) % 3]}`,
});

async function setup(server, api) {
  const { access_token: admin } = await api.loginAdmin();
  const users = {};
  for (const who of ["lead", "ann1", "ann2", "ann3", "reviewer", "adjudicator"]) {
    users[who] = await api.createUser(admin, { email: `${who}@arbiter.test`, name: `${who[0].toUpperCase()}${who.slice(1)} Person`, password: PASSWORD, can_create_projects: who === "lead" });
    users[who].email = `${who}@arbiter.test`;
    users[who].token = (await api.login(users[who].email, PASSWORD)).access_token;
  }
  const lead = users.lead.token;
  const project = (body) => api.request("POST", "/api/v1/projects", { token: lead, body });
  const adj = await project({ name: "RoboJudge, three labels", template: "robojudge", workflow: { overlap: 3, adjudication: "always", show_annotator_names: true } });
  const rev = await project({ name: "RoboJudge, cross review", template: "robojudge", workflow: { overlap: 1, review: "cross" } });
  // The pairs project carries its template's guidelines, as the wizard sets them.
  const jaGuidelines = (await api.request("GET", "/api/v1/templates/judgeanything-pair", { token: lead })).guidelines;
  assert.ok(jaGuidelines.trim(), "the template has guidelines");
  const pair = await project({ name: "Judge Anything pairs", template: "judgeanything-pair", guidelines: jaGuidelines, workflow: { overlap: 1 } });
  const roles = { ann1: ["annotator"], ann2: ["annotator"], ann3: ["annotator"], reviewer: ["reviewer"], adjudicator: ["adjudicator"] };
  for (const p of [adj, rev, pair]) for (const [who, r] of Object.entries(roles)) await api.setMemberRoles(admin, p.id, users[who].id, r);
  // The lead also works in the first project, so every tab is theirs to open.
  await api.setMemberRoles(admin, adj.id, users.lead.id, ["lead", "annotator", "reviewer", "adjudicator"]);

  const rjSamples = (await api.request("GET", "/api/v1/templates/robojudge", { token: lead })).samples;
  const jaSamples = (await api.request("GET", "/api/v1/templates/judgeanything-pair", { token: lead })).samples;
  await importItems(server.url, lead, adj.id, rjSamples.slice(0, 1));
  await importItems(server.url, lead, rev.id, rjSamples.slice(0, 1));
  await importItems(server.url, lead, pair.id, jaSamples);
  for (const [k, who] of ["ann1", "ann2", "ann3"].entries()) await labelByApi(server.url, users[who].token, adj.id, rjAnswers(k));
  await labelByApi(server.url, users.ann1.token, rev.id, rjAnswers(1));
  return { users, adj, rev, pair, jaCount: jaSamples.length, jaGuidelines };
}

async function legendOpensWithQuestionMark(page, text) {
  await page.keyboard.press("Shift+Slash");
  const legend = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await legend.waitFor();
  assert.match(await legend.textContent(), text);
  return legend;
}

async function closeLegend(page) {
  await page.keyboard.press("Escape");
  await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor({ state: "detached" });
}

test("annotator screens: nothing cut off at 1440×900 and 1280×800, legends, pairwise keys, media references, no console noise", (t) =>
  withArbiter(
    t,
    async ({ server, api, browser }) => {
      await mkdir(shots, { recursive: true });
      const s = await setup(server, api);

      // A pairwise form with optional comments after each choice: a, b, t and Enter alone answer and submit it.
      {
        const { context, page, problems } = await signIn(browser, server.url, s.users.ann1.email, VIEWPORTS[1]);
        await page.goto(`/projects/${s.pair.id}/annotate`);
        for (let n = 0; n < s.jaCount; n++) {
          await page.waitForFunction(() => document.activeElement?.matches(".q-card"));
          assert.equal(await page.evaluate(() => document.scrollingElement.scrollTop), 0, `item ${n + 1} opens at the top`);
          const first = await page.locator(".q-card").first().boundingBox();
          assert.ok(first.y >= 0 && first.y + 40 <= VIEWPORTS[1].height, `the first question is in view (y=${first.y})`);
          const text = await page.locator(".inputs-pane:visible").textContent();
          assert.doesNotMatch(text, /\{(image|video|audio)#\d+\}|\{rubric: \[/, "no author syntax reaches the annotator");
          const guidelines = page.getByRole("region", { name: "Guidelines" });
          const rules = guidelines.locator(".guidelines-body");
          if (n === 0) {
            // A first visit: the project's guidelines are open above the form, which keeps the keyboard.
            assert.equal(await rules.isVisible(), true, "the guidelines are open on a first visit");
            const firstLine = s.jaGuidelines.trim().split("\n")[0].slice(0, 40);
            assert.ok((await rules.textContent()).includes(firstLine), `the panel shows the project's guidelines ("${firstLine}")`);
            assert.equal(await guidelines.getByRole("button").getAttribute("aria-keyshortcuts"), "Shift+G");
            await viewShot(page, shots, "01-pairwise-start-guidelines", VIEWPORTS[1]);
            await page.keyboard.press("Shift+G");
            await rules.waitFor({ state: "hidden" });
            assert.equal(await page.evaluate(() => document.activeElement?.matches(".q-card")), true, "Shift+G leaves the focus on the question");
            await viewShot(page, shots, "01-pairwise-start", VIEWPORTS[1]);
          } else {
            assert.equal(await rules.isVisible(), false, "the guidelines stay closed once closed");
          }
          for (const k of ["a", "b", "t", "a", "b", "t", "a"]) await page.keyboard.press(k);
          const answered = await page.locator(".progress-text:visible").textContent();
          assert.match(answered, /^7\/14 answered/, "seven choices, the optional comments passed over");
          assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Submit Ctrl+Enter", "the submit button is next");
          const prev = await page.getByTestId("work").getAttribute("data-assignment");
          await page.keyboard.press("Enter");
          await page.waitForFunction((p) => document.querySelector("[data-testid=queue-empty]") || document.querySelector("[data-testid=work]")?.dataset.assignment !== p, prev);
          const refs = await page.locator(".inputs-pane:visible .media-ref").allTextContents();
          if (refs.length) {
            assert.deepEqual(refs, ["Image 1"], "{image#1} renders as the image it names");
            await viewShot(page, shots, "02-media-reference", VIEWPORTS[1]);
          }
        }
        await page.getByTestId("queue-empty").waitFor();
        assertNoConsoleProblems(problems, "ann1 pairwise");
        await context.close();
      }

      for (const vp of VIEWPORTS) {
        // Review: the label's table and the verdicts fit; ? opens the legend.
        {
          const { context, page, problems } = await signIn(browser, server.url, s.users.reviewer.email, vp);
          await page.goto(`/projects/${s.rev.id}/review`);
          const table = page.getByRole("table", { name: "The label under review" });
          await table.waitFor();
          assert.deepEqual(await clipped(page, ".answers-table td.answer, .answers-table td.q-name, .answers-table th"), []);
          await viewShot(page, shots, "03-review", vp);
          await legendOpensWithQuestionMark(page, /Approve the label/);
          await viewShot(page, shots, "04-review-legend", vp);
          await closeLegend(page);
          assertNoConsoleProblems(problems, `reviewer ${vp.width}`);
          await context.close();
        }

        // Adjudication: three long evidence texts and the Final column in view; ? opens the legend.
        {
          const { context, page, problems } = await signIn(browser, server.url, s.users.adjudicator.email, vp);
          await page.goto(`/projects/${s.adj.id}/adjudicate`);
          await page.getByRole("table", { name: "Labels per question" }).waitFor();
          assert.deepEqual(await clipped(page, ".labels-table .val, .labels-table .final-cell, .labels-table th"), []);
          const noMajority = await page.evaluate(() =>
            [...document.querySelectorAll(".labels-table tbody tr")]
              .filter((tr) => [...tr.querySelectorAll(".dis-chip")].some((c) => c.textContent === "majority"))
              .filter((tr) => {
                const vals = [...tr.querySelectorAll(".label-cell.col-label .val")].map((b) => b.textContent);
                const most = Math.max(...vals.map((v) => vals.filter((w) => w === v).length));
                return most * 2 <= vals.length;
              })
              .map((tr) => tr.dataset.question),
          );
          assert.deepEqual(noMajority, [], "a majority badge only where more than half the labels agree");
          await viewShot(page, shots, "05-adjudicate", vp);
          // Take label 1's answer everywhere it is still open; the evidence shows in full in the Final column.
          for (let i = 0; i < 6; i++) await page.keyboard.press("1");
          assert.deepEqual(await clipped(page, ".labels-table .final-cell"), []);
          assert.match(await page.locator('.labels-table tr[data-question="pa_evidence"] .final-cell').textContent(), /bowl keeps its shape through the whole clip/);
          await viewShot(page, shots, "06-adjudicate-picked", vp);
          await legendOpensWithQuestionMark(page, /Next question where the columns differ/);
          await viewShot(page, shots, "07-adjudicate-legend", vp);
          await closeLegend(page);
          if (vp === VIEWPORTS.at(-1)) {
            await page.keyboard.press("r");
            await page.waitForFunction(() => document.activeElement?.id === "adj-rationale");
            await page.keyboard.type("Label 1 describes the grasp as the clip shows it.");
            await page.keyboard.press("Control+Enter");
            await page.getByTestId("queue-empty").waitFor();
          }
          assertNoConsoleProblems(problems, `adjudicator ${vp.width}`);
          await context.close();
        }
      }

      // The item page: three labels with long evidence, and the ground truth column in view at both sizes.
      {
        const { context, page, problems } = await signIn(browser, server.url, s.users.lead.email, VIEWPORTS[0]);
        await page.goto(`/projects/${s.adj.id}/items`);
        await page.locator("[data-provenance]").first().waitFor();
        await page.locator("tbody tr[data-external-id]").first().click();
        const grid = page.getByRole("table", { name: "Answers by question" });
        await grid.waitFor();
        let header = null;
        for (const vp of VIEWPORTS) {
          await page.setViewportSize(vp);
          await page.getByRole("button", { name: "← All items" }).scrollIntoViewIfNeeded();
          assert.deepEqual(await clipped(page, ".answers-scroll .gt-cell, .answers-scroll .gt-col"), []);
          await grid.scrollIntoViewIfNeeded();
          await viewShot(page, shots, "08-item-ground-truth", vp);
          // The project header stays put from tab to tab.
          // (This project has no review stage, so its queue is not asked for.)
          for (const tab of ["Overview", "Items", "Annotate", "Adjudicate", "Agreement", "Members"]) {
            const link = page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: tab, exact: true });
            if (!(await link.count())) continue;
            await link.click();
            await page.waitForLoadState("networkidle");
            const box = await page.locator(".project-header h1").boundingBox();
            const at = `${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)}`;
            header ??= {};
            header[vp.width] ??= at;
            assert.equal(at, header[vp.width], `the header stays put on ${tab} at ${vp.width}`);
          }
          await page.goto(`/projects/${s.adj.id}/items`);
          await page.locator("tbody tr[data-external-id]").first().click();
          await grid.waitFor();
        }
        assertNoConsoleProblems(problems, "lead");
        await context.close();
      }
    },
    { prefix: "annotator-screens", viewport: VIEWPORTS[0] },
  ));
