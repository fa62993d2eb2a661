// The annotation workflow in the browser: three annotators label with the
// keyboard only (one item on purpose with different answers), a reviewer
// cross-reviews, an adjudicator settles, and the lead sees ground truth with
// its provenance. Also measures submit → next item ready (p50/p95).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, withArbiter } from "./harness.mjs";
import { PASSWORD, answerAll, armLatencyProbe, assertNoConsoleProblems, percentile, saveShot, signIn, waitNextReady } from "./workflow-steps.mjs";

const shots = join(artifactsDir, "workflow");
// note: E2E_D3_ITEMS runs the labeling part alone with that many items, as the latency benchmark
// of docs/performance.md (35 items: 102 submits measured)
const BENCH_ITEMS = Number(process.env.E2E_D3_ITEMS) || 0;
const D3_ITEMS = BENCH_ITEMS || 9;
const SPLIT_ITEM = "d3-004"; // annotator 3 answers differently on this one

function d3Item(i) {
  const id = `d3-${String(i).padStart(3, "0")}`;
  const [img, prompt] = i % 2 ? ["media/boats.png", "Fishing boats moored in a calm harbour"] : ["media/apple.png", "A single red apple on a wooden table"];
  return { external_id: id, inputs: { prompt: `${prompt} (${id})`, image: img, generator: "model-x" }, meta: { source: "e2e" } };
}

const RJ_ITEMS = [1, 2].map((i) => ({
  external_id: `rj-${i}`,
  inputs: {
    video: "media/robot_rollout.mp4",
    first_frame: "media/robot_first_frame.png",
    instruction: i === 1 ? "Pick up the red cube and place it in the bowl." : "Push the blue block to the left edge.",
    generator: "model-y",
  },
}));

async function setup(api) {
  const { access_token: admin } = await api.loginAdmin();
  const users = {};
  for (const who of ["lead", "ann1", "ann2", "ann3", "reviewer", "adjudicator"]) {
    const name = { lead: "Lena Lead", ann1: "Ana Annotator", ann2: "Ben Annotator", ann3: "Cleo Annotator", reviewer: "Rui Reviewer", adjudicator: "Ada Adjudicator" }[who];
    const u = await api.createUser(admin, { email: `${who}@arbiter.test`, name, password: PASSWORD, can_create_projects: who === "lead" });
    users[who] = { ...u, email: `${who}@arbiter.test` };
  }
  const { access_token: lead } = await api.login(users.lead.email, PASSWORD);
  const d3 = await api.request("POST", "/api/v1/projects", {
    token: lead,
    body: { name: "D3-Omni T2I pilot", description: "17 Yes/No dimensions, three labels per image.", template: "d3omni-t2i", workflow: { overlap: 3, adjudication: "on_disagreement", show_annotator_names: true } },
  });
  const rj = await api.request("POST", "/api/v1/projects", {
    token: lead,
    body: { name: "RoboJudge pilot", description: "PA and IA with cross-review and expert adjudication.", template: "robojudge", workflow: { overlap: 1, review: "cross", adjudication: "always" } },
  });
  const roles = { ann1: ["annotator"], ann2: ["annotator"], ann3: ["annotator"], reviewer: ["reviewer"], adjudicator: ["adjudicator"] };
  for (const p of [d3, rj]) {
    // An administrator adds people at once (a lead would invite them).
    for (const [who, r] of Object.entries(roles)) await api.setMemberRoles(admin, p.id, users[who].id, r);
  }
  const ndjson = RJ_ITEMS.map((it) => JSON.stringify(it)).join("\n") + "\n";
  return { users, lead, d3, rj, rjNdjson: ndjson };
}

async function importNdjson(baseURL, token, pid, body) {
  const res = await fetch(`${baseURL}/api/v1/projects/${pid}/items`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body,
  });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}

/** One annotator labels their whole queue with the keyboard; returns the latencies measured. */
async function labelQueue(page, pid, schema, { variantFor, shotAs } = {}) {
  await page.goto(`/projects/${pid}/annotate`);
  const work = page.getByTestId("work");
  await work.waitFor();
  await page.waitForFunction(() => document.querySelector("[data-testid=queue-empty]") || document.activeElement?.matches(".q-card"));
  const times = [];
  let n = 0;
  for (;;) {
    if (await page.getByTestId("queue-empty").isVisible()) break;
    const prompt = await page.locator(".inputs-pane:visible").textContent();
    await answerAll(page, schema, (q, i) => (variantFor ? variantFor(prompt, q, i) : 0));
    if (shotAs && n === 0) await saveShot(page, join(shots, `${shotAs}.png`));
    const prev = await armLatencyProbe(page);
    await page.keyboard.press("Control+Enter");
    const ms = await waitNextReady(page, prev);
    if (ms === null) break;
    times.push(ms);
    if (process.env.E2E_TRACE) {
      const entries = await page.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.includes("/api/")).slice(-4).map((e) => `${e.name.split("/api/v1")[1]} start=${(e.startTime - window.__submitAt).toFixed(0)} dur=${e.duration.toFixed(0)}`));
      console.log(ms.toFixed(0), entries.join(" | "));
    }
    n++;
  }
  return times;
}

test("workflow: label, review, adjudicate, ground truth — keyboard only", (t) =>
  withArbiter(
    t,
    async ({ server, api, browser }) => {
      await mkdir(shots, { recursive: true });
      const s = await setup(api);
      const d3Schema = (await api.request("GET", `/api/v1/projects/${s.d3.id}`, { token: s.lead })).schema;
      const rjSchema = (await api.request("GET", `/api/v1/projects/${s.rj.id}`, { token: s.lead })).schema;

      // The lead imports the D3 items through the UI (one broken line on purpose) and the RoboJudge items by API.
      const lead = await signIn(browser, server.url, s.users.lead.email);
      const d3Lines = Array.from({ length: D3_ITEMS }, (_, i) => JSON.stringify(d3Item(i + 1)));
      d3Lines.splice(3, 0, '{"external_id": "broken", "inputs": ');
      await lead.page.goto(`/projects/${s.d3.id}/items`);
      await lead.page.getByLabel("Items file").setInputFiles({ name: "d3.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(d3Lines.join("\n") + "\n") });
      await lead.page.getByRole("button", { name: "Import", exact: true }).click();
      const report = lead.page.getByTestId("import-report");
      await report.waitFor();
      assert.match(await report.textContent(), new RegExp(`${D3_ITEMS + 1} lines: ${D3_ITEMS} imported`));
      assert.equal(await lead.page.getByRole("table", { name: "Lines with errors" }).locator("tbody tr").count(), 1);
      await saveShot(lead.page, join(shots, "00-import-report.png"));
      await importNdjson(server.url, s.lead, s.rj.id, s.rjNdjson);

      // Three annotators label every D3 item; annotator 3 says "no" to the first dimensions of one item.
      const latencies = [];
      for (const who of ["ann1", "ann2", "ann3"]) {
        const { context, page, problems } = await signIn(browser, server.url, s.users[who].email);
        const variantFor = who === "ann3" ? (prompt, q, i) => (prompt.includes(SPLIT_ITEM) && i < 2 ? 1 : 0) : undefined;
        latencies.push(...(await labelQueue(page, s.d3.id, d3Schema, { variantFor, shotAs: who === "ann1" ? "01-annotate-d3" : undefined })));
        // Their own progress, from the server: all nine items today, nothing left.
        await page.waitForFunction((n) => document.querySelector("[data-testid=progress-done]")?.textContent === `${n} / ${n}`, D3_ITEMS);
        assert.equal(await page.getByTestId("progress-left").textContent(), "0 left");
        if (who === "ann3") await saveShot(page, join(shots, "02-annotate-queue-empty.png"));
        assertNoConsoleProblems(problems, who);
        await context.close();
      }
      assert.ok(latencies.length >= 20, `measured ${latencies.length} submits`);
      const p50 = percentile(latencies, 50);
      const p95 = percentile(latencies, 95);
      console.log(`submit → next item ready over ${latencies.length} submits: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`);
      t.diagnostic(`latency p50=${p50.toFixed(1)}ms p95=${p95.toFixed(1)}ms n=${latencies.length}`);
      if (BENCH_ITEMS) return;

      // RoboJudge: one annotator labels both items (scores, checklists, evidence text) with the keyboard.
      {
        const { context, page, problems } = await signIn(browser, server.url, s.users.ann1.email);
        await labelQueue(page, s.rj.id, rjSchema, { shotAs: "03-annotate-robojudge" });
        assertNoConsoleProblems(problems, "ann1 robojudge");
        await context.close();
      }

      // The reviewer approves the first label with "a" and corrects the second with "c".
      {
        const { context, page, problems } = await signIn(browser, server.url, s.users.reviewer.email);
        await page.goto(`/projects/${s.rj.id}/review`);
        await page.getByRole("table", { name: "The label under review" }).waitFor();
        await page.keyboard.press("j");
        await page.keyboard.press("m");
        await page.keyboard.type("Checklist matches the video.");
        await page.keyboard.press("Enter");
        await saveShot(page, join(shots, "04-review.png"));
        let prev = await page.getByTestId("work").getAttribute("data-assignment");
        await page.keyboard.press("a");
        await page.waitForFunction((p) => document.querySelector("[data-testid=work]")?.dataset.assignment !== p, prev);
        await page.getByRole("table", { name: "The label under review" }).waitFor();
        await page.keyboard.press("c");
        await page.locator(".q-card").first().waitFor();
        await page.waitForFunction(() => document.activeElement?.matches(".q-card"));
        await page.keyboard.press("2");
        await saveShot(page, join(shots, "05-review-correct.png"));
        await page.keyboard.press("Control+Enter");
        await page.getByTestId("queue-empty").waitFor();
        assertNoConsoleProblems(problems, "reviewer");
        await context.close();
      }

      // The adjudicator settles the split D3 item by picking per question, and both RoboJudge items.
      {
        const { context, page, problems } = await signIn(browser, server.url, s.users.adjudicator.email);
        await page.goto(`/projects/${s.d3.id}/adjudicate`);
        await page.getByRole("table", { name: "Labels per question" }).waitFor();
        assert.equal(await page.locator(".labels-table tr.dis-open").count(), 2, "two questions differ");
        await page.keyboard.press("1");
        await page.keyboard.press("1");
        await page.keyboard.press("r");
        await page.getByLabel(/Rationale/).waitFor();
        await page.waitForFunction(() => document.activeElement?.id === "adj-rationale");
        await page.keyboard.type("Composition and colour match the prompt; the third label misread the scene.");
        await page.keyboard.press("Escape");
        await page.keyboard.press("Shift+Digit4");
        await saveShot(page, join(shots, "06-adjudicate.png"));
        await page.keyboard.press("Control+Enter");
        await page.getByTestId("queue-empty").waitFor();

        await page.goto(`/projects/${s.rj.id}/adjudicate`);
        for (let i = 0; i < RJ_ITEMS.length; i++) {
          await page.getByRole("table", { name: "Labels per question" }).waitFor();
          if (i === 1) await saveShot(page, join(shots, "07-adjudicate-robojudge.png"));
          const prev = await page.getByTestId("work").getAttribute("data-assignment");
          await page.keyboard.press("r");
          await page.waitForFunction(() => document.activeElement?.id === "adj-rationale");
          await page.keyboard.type("Reviewed label holds; evidence cites the contacts.");
          await page.keyboard.press("Control+Enter");
          await page.waitForFunction((p) => document.querySelector("[data-testid=work]")?.dataset.assignment !== p, prev);
        }
        await page.getByTestId("queue-empty").waitFor();
        assertNoConsoleProblems(problems, "adjudicator");
        await context.close();
      }

      // The lead sees ground truth with provenance: unanimous for most, adjudicated for the split item.
      {
        const { page, problems } = lead;
        await page.goto(`/projects/${s.d3.id}/items`);
        const rows = page.getByRole("table", { name: "Items" });
        await rows.waitFor();
        await page.waitForFunction((n) => document.querySelectorAll("[data-provenance]").length === n, D3_ITEMS);
        assert.equal(await page.locator('[data-provenance="unanimous"]').count(), D3_ITEMS - 1);
        assert.equal(await page.locator(`tr[data-external-id="${SPLIT_ITEM}"] [data-provenance="adjudicated"]`).count(), 1);
        await page.locator(`tr[data-external-id="${SPLIT_ITEM}"]`).click();
        const detail = page.getByTestId("item-detail");
        await detail.getByText("Rationale:").waitFor();
        const revisions = detail.getByRole("table", { name: "Ground truth revisions" });
        assert.match(await revisions.textContent(), /Adjudicated.*Ada Adjudicator.*third label misread the scene/);
        assert.equal(await detail.getByRole("table", { name: "Answers by question" }).locator("thead th").count(), 1 + 3 + 1, "three labels and the ground truth");
        await saveShot(page, join(shots, "08-items-ground-truth.png"));
        await page.goto(`/projects/${s.rj.id}/items`);
        await page.waitForFunction(() => document.querySelectorAll('[data-provenance="adjudicated"]').length === 2);
        // The reviewer's per-question comment is stored with the review and shown next to the answer it is about.
        const said = [];
        for (const it of RJ_ITEMS) {
          await page.locator(`tr[data-external-id="${it.external_id}"]`).click();
          const detail = page.getByTestId("item-detail");
          await detail.getByRole("table", { name: "Answers by question" }).waitFor();
          const texts = await detail.getByTestId("question-comment").allTextContents();
          if (texts.length) await saveShot(page, join(shots, "08b-item-detail-review-comment.png"));
          said.push(...texts);
          await detail.getByRole("button", { name: "← All items" }).click();
        }
        assert.deepEqual(said, ["Rui Reviewer: Checklist matches the video."]);
        await page.goto(`/projects/${s.d3.id}/overview`);
        await page.getByRole("table", { name: "Throughput per annotator" }).waitFor();
        await saveShot(page, join(shots, "09-overview.png"));
        assertNoConsoleProblems(problems, "lead");
        await lead.context.close();
      }
    },
    { prefix: "workflow", viewport: { width: 1440, height: 900 } },
  ));
