// A lead's project in the browser at 1440 × 900, on an Omni-Reward project with a criteria
// stage and cross review: every project tab fits; the annotator starts where their work is
// (writing criteria); the reviewer reviews the criteria in a tab of their own beside the
// item's prompt and images; the units made from criteria have readable names; a template's
// long guidelines show every paragraph.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, withArbiter } from "./harness.mjs";
import { PASSWORD, assertNoConsoleProblems, saveShot, signIn } from "./workflow-steps.mjs";

const shots = join(artifactsDir, "lead");
const VIEWPORT = { width: 1440, height: 900 };

const ITEMS = [
  ["or-t2i-001", "Two white sailboats on a calm sea at sunset.", "media/boats.png", "media/boats_sunset.png"],
  ["or-t2i-002", "A single red apple on a wooden table.", "media/apple.png", "media/apple_blurred.png"],
].map(([id, prompt, a, b]) => ({
  external_id: id,
  inputs: { prompt, responses: [{ id: "r1", type: "image", value: a, meta: { model: "m-1" } }, { id: "r2", type: "image", value: b, meta: { model: "m-2" } }] },
}));

async function setup(server, api) {
  const { access_token: admin } = await api.loginAdmin();
  const users = {};
  for (const who of ["ann", "rev"]) {
    users[who] = await api.createUser(admin, { email: `${who}@arbiter.test`, name: who === "ann" ? "Ana Annotator" : "Rui Reviewer", password: PASSWORD });
  }
  const p = await api.request("POST", "/api/v1/projects", {
    token: admin,
    body: {
      name: "Omni-Reward pilot",
      template: "omnireward-pair",
      workflow: { overlap: 1, review: "cross", criteria_stage: { form: "criteria", question: "criteria", input: "criterion", overlap: 1, authors_label: true } },
    },
  });
  await api.setMemberRoles(admin, p.id, users.ann.id, ["annotator"]);
  await api.setMemberRoles(admin, p.id, users.rev.id, ["reviewer"]);
  const res = await fetch(`${server.url}/api/v1/projects/${p.id}/items`, {
    method: "POST",
    headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/x-ndjson" },
    body: ITEMS.map((it) => JSON.stringify(it)).join("\n") + "\n",
  });
  assert.equal(res.status, 200, await res.clone().text());
  return { admin, pid: p.id };
}

/** The project tabs that are not wholly inside the viewport (or hidden by the tab bar's scrolling). */
function tabsOutside(page) {
  return page.evaluate(() => {
    const bar = document.querySelector("nav.tabs").getBoundingClientRect();
    const right = Math.min(document.documentElement.clientWidth, bar.right);
    return [...document.querySelectorAll("nav.tabs .tab")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.left < Math.max(0, bar.left) - 0.5 || r.right > right + 0.5 || r.top < bar.top - 0.5 || r.bottom > bar.bottom + 0.5;
      })
      .map((el) => el.textContent);
  });
}

test("lead: every tab fits at 1440 px, annotators start on criteria, criteria reviewed beside the item, readable unit names, whole guidelines", (t) =>
  withArbiter(
    t,
    async ({ server, api, browser, page, consoleErrors }) => {
      await mkdir(shots, { recursive: true });
      const { pid } = await setup(server, api);
      const base = `/projects/${pid}`;

      // The administrator holds every role, so every tab is shown (Review and Criteria too).
      await page.goto("/login");
      await page.getByLabel("Email").fill(server.admin.email);
      await page.getByLabel("Password").fill(server.admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/projects$/);
      await page.goto(`${base}/overview`);
      const nav = page.getByRole("navigation", { name: "Project sections" });
      await nav.getByRole("link", { name: "Settings" }).waitFor();
      const labels = await nav.getByRole("link").allTextContents();
      for (const l of ["Overview", "Items", "Annotate", "Review", "Criteria", "Adjudicate", "Balance", "Members", "Settings"]) assert.ok(labels.includes(l), `tab ${l} in ${labels}`);
      assert.deepEqual(await tabsOutside(page), [], "every tab inside the viewport at 1440 px");
      const rows = await nav.getByRole("link").evaluateAll((els) => new Set(els.map((el) => Math.round(el.getBoundingClientRect().top))).size);
      assert.equal(rows, 1, "the tabs fit one row at 1440 px");
      await page.screenshot({ path: join(shots, "01-tabs-1440.png") });

      // The annotator's label queue is empty (items start with criteria): they land on criteria.
      const ann = await signIn(browser, server.url, "ann@arbiter.test", VIEWPORT);
      await ann.page.goto(`${base}/annotate`);
      await ann.page.getByRole("tab", { name: "Write criteria", selected: true }).waitFor();
      assert.match(ann.page.url(), /stage=criteria/);
      for (let n = 0; n < ITEMS.length; n++) {
        await ann.page.waitForFunction(() => document.activeElement?.matches(".q-card"));
        if (n === 0) await saveShot(ann.page, join(shots, "02-annotator-lands-on-criteria.png"));
        await ann.page.keyboard.press("Enter");
        for (const c of [`The image shows exactly what the prompt asks, item ${n + 1}.`, `The colours match the prompt, item ${n + 1}.`]) {
          await ann.page.keyboard.type(c);
          await ann.page.keyboard.press("Enter");
        }
        await ann.page.keyboard.press("Escape");
        await ann.page.keyboard.press("Control+Enter");
        await ann.page.getByTestId("queue-empty").or(ann.page.locator(".inputs-pane:visible", { hasText: ITEMS[n + 1]?.inputs.prompt ?? "-" })).first().waitFor();
      }
      await ann.page.getByTestId("queue-empty").waitFor();

      // The reviewer has no label work; the overview leads to the Criteria tab, which shows the item beside its criteria.
      const rev = await signIn(browser, server.url, "rev@arbiter.test", VIEWPORT);
      await rev.page.goto(`${base}/overview`);
      await rev.page.getByRole("link", { name: "Review criteria" }).waitFor();
      assert.equal(await rev.page.getByText("You have no work roles in this project.").count(), 0);
      await rev.page.screenshot({ path: join(shots, "03a-reviewer-overview.png") });
      await rev.page.getByRole("link", { name: "Review criteria" }).click();
      await rev.page.waitForURL(/\/criteria$/);
      const item = rev.page.getByTestId("criteria-item");
      await item.getByText(ITEMS[0].inputs.prompt).waitFor();
      assert.equal(await item.locator("img").count(), 2, "the item's two response images beside its criteria");
      await rev.page.evaluate(() => Promise.all([...document.images].map((img) => img.decode().catch(() => {}))));
      await saveShot(rev.page, join(shots, "03b-criteria-review.png"));
      const list = rev.page.getByLabel(/Criteria to review/);
      await list.focus();
      for (const key of ["1", "2", "1", "1"]) {
        const left = await rev.page.locator(".criteria-list li").count();
        await rev.page.keyboard.press(key);
        await rev.page.waitForFunction((n) => document.querySelectorAll(".criteria-list li").length < n, left);
        if (left > 1) await list.focus();
      }
      await rev.page.getByText("No criteria waiting for review.").waitFor();

      // The units made from the valid criteria read as "<item> · criterion <n>".
      await page.goto(`${base}/items`);
      const units = page.locator("tr[data-external-id*='#criterion-'] code");
      await units.first().waitFor();
      assert.equal(await units.count(), 3);
      for (const name of await units.allTextContents()) assert.match(name, /^or-t2i-00[12] · criterion [0-9a-f]{4}$/);
      await saveShot(page, join(shots, "04-unit-names.png"));

      // A long template's guidelines: its last paragraph is inside the box, not in a column beside it.
      await page.goto("/templates/d3omni-t2i");
      const box = page.locator("details.guidelines .md");
      await box.waitFor();
      // Scrolled down as far as it goes, the box shows its last paragraph, and it never scrolls sideways.
      const fit = await box.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
        const b = el.getBoundingClientRect();
        const l = [...el.querySelectorAll("p")].at(-1).getBoundingClientRect();
        return { sideways: el.scrollWidth > el.clientWidth + 1, inside: l.left >= b.left && l.right <= b.right + 1 && l.top >= b.top - 1 && l.bottom <= b.bottom + 1 };
      });
      assert.deepEqual(fit, { sideways: false, inside: true }, "the last paragraph (the N/A rule) shows in the box");
      await page.screenshot({ path: join(shots, "05-template-guidelines.png") });

      assertNoConsoleProblems(ann.problems, "annotator");
      assertNoConsoleProblems(rev.problems, "reviewer");
      assert.deepEqual(consoleErrors.filter((e) => !/status of 401/.test(e)), [], "no console errors for the administrator");
      await ann.context.close();
      await rev.context.close();
    },
    { prefix: "lead", viewport: VIEWPORT },
  ));
