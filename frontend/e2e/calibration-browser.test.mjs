// Calibration from an empty server, in the browser only: the administrator
// makes the accounts, a lead creates a RoboJudge project in the wizard and
// invites three annotators, finds the empty calibration pool, reads the import
// format (input keys, gold answers, a sample file), has refused lines
// explained line by line, imports the pool with gold answers and media, starts
// a round; the annotators join and label it by keyboard; the lead closes it and
// reads the report. The API is only read, for the schema's question kinds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ADMIN_EMAIL, ADMIN_PASSWORD, artifactsDir, withArbiter } from "./harness.mjs";
import { createAccounts, inviteByEmail, joinProject, shootOnFailure, signInWith, templateMedia, zip } from "./setup-steps.mjs";
import { PASSWORD, assertNoConsoleErrors, labelWithKeyboard, saveShot, signIn } from "./workflow-steps.mjs";

const dir = join(artifactsDir, "calibration-browser");
const shot = (name) => join(dir, `${name}.png`);
const PROJECT = "RoboJudge calibration pilot";
const LEAD = { name: "Lena Lead", email: "lead@arbiter.test", lead: true };
const TEAM = [
  { key: "ann1", name: "Ana Annotator", email: "ann1@arbiter.test", roles: ["annotator"] },
  { key: "ann2", name: "Ben Annotator", email: "ann2@arbiter.test", roles: ["annotator"] },
  { key: "ann3", name: "Cleo Annotator", email: "ann3@arbiter.test", roles: ["annotator"] },
];
const INSTRUCTIONS = ["Pick up the red cube and place it in the bowl.", "Push the blue block to the left edge.", "Stack the green cube on the red one."];

/** A calibration line with its media named by path in the archive and a gold answer on both scores. */
const poolLine = (i) => ({
  external_id: `cal-${i}`,
  inputs: { video: "media/robot_rollout.mp4", first_frame: "media/robot_first_frame.png", instruction: INSTRUCTIONS[i - 1], generator: "model-y" },
  ground_truth: { answers: { physical_adherence: 4, instruction_alignment: 4 } },
});
const ndjson = (lines) => lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n";

/** The project's tab of this name, opened from the project's navigation. */
async function openTab(page, name) {
  await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name, exact: true }).click();
}

/** The rows of a table as the text of their cells. */
const rowsOf = (table) => table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent.trim())));

test("calibration in the browser: the pool imported with gold answers, a round started, labeled by three annotators, closed and read", (t) =>
  withArbiter(t, async ({ server, api, browser }) => {
    await mkdir(dir, { recursive: true });
    await shootOnFailure(browser, dir, async () => {
      const admin = await signInWith(browser, server.url, ADMIN_EMAIL, ADMIN_PASSWORD);
      await createAccounts(admin.page, [LEAD, ...TEAM]);
      await admin.context.close();

      // The lead creates the project from the RoboJudge template and invites the annotators.
      const L = await signIn(browser, server.url, LEAD.email);
      const page = L.page;
      await page.getByRole("link", { name: "New project" }).click();
      await page.locator('[data-template="robojudge"]').click();
      await page.getByRole("button", { name: "Next: project and workflow" }).click();
      await page.getByLabel("Name", { exact: true }).fill(PROJECT);
      await page.waitForFunction(() => [...document.querySelectorAll("button")].some((b) => b.textContent === "Create project" && !b.disabled));
      await page.getByRole("button", { name: "Create project" }).click();
      await page.waitForURL(/step=members/);
      const pid = new URL(page.url()).searchParams.get("project");
      await inviteByEmail(page, TEAM);
      const people = {};
      for (const p of TEAM) people[p.key] = await joinProject(browser, server.url, p.email, PROJECT);

      // The Calibration tab of a new project: the pool is empty, and the way to fill it is offered.
      await page.goto(`/projects/${pid}/overview`);
      await openTab(page, "Calibration");
      const empty = page.getByRole("region", { name: "Calibration pool" });
      await empty.getByText("The calibration pool is empty").waitFor();
      await saveShot(page, shot("01-calibration-empty-pool"));
      await empty.getByRole("link", { name: "Import calibration items" }).click();
      await page.waitForURL(/\/items\?pool=calibration$/);

      // The Items tab opens on the calibration pool, with the format made from the schema.
      const forms = page.locator(".items-imports");
      for (const radio of await forms.getByRole("radio", { name: /Calibration pool/ }).all()) assert.equal(await radio.isChecked(), true, "both import forms are set to the pool");
      const keys = page.getByRole("table", { name: "Input keys" });
      await keys.waitFor();
      const rows = Object.fromEntries((await rowsOf(keys)).map((r) => [r[0], r.slice(1, 4)]));
      assert.deepEqual(rows["inputs.video"], ["video", "required", "shown"]);
      assert.deepEqual(rows["inputs.instruction"], ["text", "required", "shown"]);
      assert.deepEqual(rows["inputs.generator"], ["text", "optional", "hidden"]);
      const gold = JSON.parse(await page.getByTestId("gold-format").locator("pre").textContent());
      assert.ok(gold.ground_truth.answers.physical_adherence && gold.ground_truth.answers.ia_checklist, "the gold example answers every question");
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download a sample file (.jsonl)" }).click()]);
      assert.equal(download.suggestedFilename(), "calibration-sample.jsonl");
      const sample = (await readFile(await download.path(), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
      assert.ok(sample.length >= 1 && sample.every((l) => l.ground_truth?.answers && l.inputs.instruction), "the sample file has gold answers and every input");
      await saveShot(page, shot("02-items-calibration-format"));

      // Pasted lines with mistakes are refused line by line: the field, the problem and the fix.
      const card = page.locator(".import-card", { has: page.getByRole("heading", { name: "Import items", exact: true }) });
      await card.getByRole("radio", { name: "Pasted lines" }).check();
      await card.getByLabel("Lines to import").fill(
        ndjson([
          { ...poolLine(1), external_id: "bad-1", pool: "calibration" },
          { external_id: "bad-2", inputs: { video: "https://example.org/v.mp4", first_frame: "https://example.org/f.png" } },
          { ...poolLine(1), external_id: "bad-3", ground_truth: { answers: {}, pa: 4 } },
          '{"external_id": "bad-4",',
        ]),
      );
      await card.getByRole("button", { name: "Import into the calibration pool" }).click();
      const report = card.getByTestId("import-report");
      await report.waitFor();
      assert.match(await report.textContent(), /4 lines: 0 imported/);
      const errors = await rowsOf(report.getByRole("table", { name: "Lines with errors" }));
      const byLine = (n) => errors.find((r) => r[0] === String(n));
      assert.equal(byLine(1)[1], "pool");
      assert.match(byLine(1)[2], /"pool" is not a field here.*unknown_field/);
      assert.match(byLine(1)[3], /choose the calibration pool/);
      assert.equal(byLine(2)[1], "inputs.instruction");
      assert.match(byLine(2)[3], /Add "instruction" to the line's inputs/);
      assert.equal(byLine(3)[1], "ground_truth.pa");
      assert.match(byLine(3)[2], /unknown_field/);
      assert.match(byLine(4)[2], /malformed JSON/);
      assert.ok(!errors.some((r) => r[0] !== "4" && /malformed/.test(r[2])), "only the broken line is called malformed");
      await saveShot(page, shot("03-items-refused-lines"));

      // The pool with its media: a zip of the clip and its first frame, and three lines with gold answers.
      const media = page.locator(".import-card", { has: page.getByRole("heading", { name: "Import items with media" }) });
      await media.getByLabel("Media archive (.zip)").setInputFiles({
        name: "media.zip",
        mimeType: "application/zip",
        buffer: zip([
          { name: "media/robot_rollout.mp4", data: await templateMedia("robot_rollout.mp4") },
          { name: "media/robot_first_frame.png", data: await templateMedia("robot_first_frame.png") },
        ]),
      });
      await media.getByLabel("Items naming the media (.jsonl)").setInputFiles({ name: "pool.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(ndjson([1, 2, 3].map(poolLine))) });
      await media.getByRole("button", { name: "Import with media into the calibration pool" }).click();
      assert.match(await media.getByTestId("import-report").textContent(), /3 lines: 3 imported, 0 updated, 0 unchanged, 0 with errors/);
      for (const i of [1, 2, 3]) await page.locator(`[data-external-id="cal-${i}"]`).getByText("Calibration").waitFor();
      await saveShot(page, shot("04-items-pool-imported"));

      // Back on the Calibration tab the pool has items; the lead starts a round of all three.
      await openTab(page, "Calibration");
      await page.getByRole("heading", { name: "New round" }).waitFor();
      await page.getByRole("heading", { name: "Rounds" }).waitFor();
      assert.equal(await page.getByRole("region", { name: "Calibration pool" }).count(), 0, "no empty-pool notice once the pool has items");
      await page.getByLabel("Name").fill("Gold check");
      await page.getByLabel("How many items").fill("3");
      for (const p of TEAM) await page.getByRole("checkbox", { name: new RegExp(p.name) }).check();
      await page.getByLabel("Threshold").fill("0.75");
      await saveShot(page, shot("05-new-round"));
      await page.getByRole("button", { name: "Start round" }).click();
      await page.getByRole("heading", { name: "Round 1: Gold check" }).waitFor();
      await saveShot(page, shot("06-round-open"));

      // The annotators label the round by keyboard from My rounds; Cleo scores physical adherence lower.
      const { access_token } = await api.login(LEAD.email, PASSWORD);
      const schema = (await api.request("GET", `/api/v1/projects/${pid}`, { token: access_token })).schema;
      for (const p of TEAM) {
        const A = people[p.key].page;
        await A.getByRole("link", { name: PROJECT }).click();
        await openTab(A, "My rounds");
        const row = A.getByRole("row", { name: /Gold check/ });
        await row.getByRole("link", { name: "Annotate" }).click();
        const variantFor = p.key === "ann3" ? (q) => (q.key === "physical_adherence" ? 1 : 0) : () => 0;
        assert.equal(await labelWithKeyboard(A, schema, variantFor, p.key === "ann1" ? shot("07-annotate-calibration") : undefined), 3, `${p.key} labeled the three items`);
        assert.equal(await A.getByTestId("work").getAttribute("data-stage"), "calibration");
        assertNoConsoleErrors(people[p.key].errors, p.key);
        await people[p.key].context.close();
      }

      // The lead sees the round complete, closes it and reads the report.
      await page.waitForFunction(() => document.querySelector('[role=progressbar][aria-label="Round completion"]')?.getAttribute("aria-valuenow") === "100", null, { timeout: 20_000 });
      await page.getByRole("button", { name: "Close round" }).click();
      await page.getByRole("button", { name: "Close now" }).click();
      const perAnnotator = page.getByRole("table", { name: "Per annotator" });
      await perAnnotator.waitFor();
      const table = await perAnnotator.textContent();
      for (const p of TEAM) assert.ok(table.includes(p.name), `${p.name} in the report`);
      await page.waitForFunction(() => document.querySelector("[data-testid=chart-scores] svg rect, [data-testid=chart-scores] svg path"));
      await saveShot(page, shot("08-report"));
      assertNoConsoleErrors(L.errors, "lead");
      await L.context.close();
    });
  }));
