// The lead's items tab in the browser: a lead who is not an administrator
// adds people by email, imports a large NDJSON file in the background (upload
// bar, then the server's import bar, then the report and the recent imports
// list), and opens one item's detail view with its image, label, review with
// per-question comments, model prediction and ground-truth history.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, withArbiter } from "./harness.mjs";
import { PASSWORD, assertNoConsoleErrors, saveShot, signIn } from "./workflow-steps.mjs";

const shots = join(artifactsDir, "items");
const ITEMS = 6000;

function line(i) {
  const id = `big-${String(i).padStart(5, "0")}`;
  const [img, prompt] = i % 2 ? ["media/apple.png", "A single red apple on a wooden table"] : ["media/boats.png", "Fishing boats moored in a calm harbour"];
  return JSON.stringify({ external_id: id, inputs: { prompt: `${prompt} (${id})`, image: img, generator: "model-x" }, meta: { batch: "e2e-large", n: i } });
}

/** Records every value each progress bar shows, from inside the page. */
async function recordBars(page) {
  await page.evaluate(() => {
    window.__bars = [];
    const look = () => {
      for (const el of document.querySelectorAll("[role=progressbar]")) {
        const k = el.getAttribute("aria-label");
        const v = Number(el.getAttribute("aria-valuenow"));
        const last = [...window.__bars].reverse().find((b) => b.k === k);
        if (!last || last.v !== v) window.__bars.push({ k, v });
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });
}

test("items: invite members by email, background import with progress, item detail", (t) =>
  withArbiter(
    t,
    async ({ server, api, browser }) => {
      await mkdir(shots, { recursive: true });
      const { access_token: admin } = await api.loginAdmin();
      const users = {};
      for (const [who, name] of [
        ["lead", "Lena Lead"],
        ["ann", "Ana Annotator"],
        ["rev", "Rui Reviewer"],
      ]) {
        users[who] = await api.createUser(admin, { email: `${who}@arbiter.test`, name, password: PASSWORD, can_create_projects: who === "lead" });
      }
      const { access_token: lead } = await api.login("lead@arbiter.test", PASSWORD);
      const project = await api.request("POST", "/api/v1/projects", {
        token: lead,
        body: { name: "Large import", template: "d3omni-t2i", workflow: { overlap: 1, review: "cross", show_annotator_names: true } },
      });
      const schema = (await api.request("GET", `/api/v1/projects/${project.id}`, { token: lead })).schema;

      // The lead (not an administrator) invites the annotator and the reviewer by email; they accept.
      const { context, page, errors } = await signIn(browser, server.url, "lead@arbiter.test");
      await page.goto(`/projects/${project.id}/members`);
      const form = page.getByRole("form", { name: "Set member roles" });
      for (const [email, role] of [
        ["ann@arbiter.test", "annotator"],
        ["rev@arbiter.test", "reviewer"],
        ["nobody@arbiter.test", "annotator"],
      ]) {
        await form.getByLabel("Email or user id").fill(email);
        for (const r of ["annotator", "reviewer"]) await form.getByLabel(r).setChecked(r === role);
        await form.getByRole("button", { name: "Save roles" }).click();
        // The same answer whether or not the email has an account.
        await form.getByRole("status").getByText(`Invited ${email} as ${role}. They join the project when they accept.`).waitFor();
      }
      for (const who of ["ann", "rev"]) {
        const { access_token: token } = await api.login(`${who}@arbiter.test`, PASSWORD);
        const [invitation] = await api.request("GET", "/api/v1/me/invitations", { token });
        await api.request("POST", `/api/v1/me/invitations/${invitation.id}/accept`, { token });
      }
      await page.reload();
      for (const email of ["ann@arbiter.test", "rev@arbiter.test"]) await page.getByRole("row", { name: new RegExp(email.replace(/\./g, "\\.")) }).waitFor();
      await saveShot(page, join(shots, "00-members-by-email.png"));

      // A large file, uploaded slowly enough to watch: the upload bar, then the server's import bar.
      const lines = Array.from({ length: ITEMS }, (_, i) => line(i + 1));
      lines.splice(10, 0, '{"external_id": "broken", "inputs": ');
      const body = Buffer.from(lines.join("\n") + "\n");
      await page.goto(`/projects/${project.id}/items`);
      await page.getByLabel("Items file").setInputFiles({ name: "large.jsonl", mimeType: "application/x-ndjson", buffer: body });
      await recordBars(page);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: Math.round(body.length / 2) });
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await page.getByRole("progressbar", { name: "Upload" }).waitFor();
      await saveShot(page, join(shots, "01-import-uploading.png"));
      await page.getByRole("progressbar", { name: "Server import" }).waitFor({ timeout: 30_000 });
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await saveShot(page, join(shots, "02-import-on-server.png"));
      const report = page.getByTestId("import-report").first();
      await report.waitFor({ timeout: 60_000 });
      assert.match(await report.textContent(), new RegExp(`${(ITEMS + 1).toLocaleString("en-US")} lines: ${ITEMS.toLocaleString("en-US")} imported`));
      assert.equal(await page.getByRole("table", { name: "Lines with errors" }).locator("tbody tr").count(), 1);
      const bars = await page.evaluate(() => window.__bars);
      const upload = bars.filter((b) => b.k === "Upload").map((b) => b.v);
      const onServer = bars.filter((b) => b.k === "Server import").map((b) => b.v);
      t.diagnostic(`upload bar: ${upload.join(" ")} | server import bar: ${onServer.join(" ")}`);
      assert.ok(upload.some((v) => v > 0 && v < 100), `the upload bar moved: ${upload}`);
      assert.ok(onServer.length > 0, "the server import bar was shown");
      assert.deepEqual(onServer, [...onServer].sort((a, b) => a - b), "the server import only goes forward");
      const recent = page.getByRole("table", { name: "Recent imports" });
      await recent.getByText("Done").waitFor();
      assert.match(await recent.textContent(), new RegExp(`${ITEMS.toLocaleString("en-US")} imported`));
      await saveShot(page, join(shots, "03-import-report.png"));

      // One label (by API), a correcting review with a per-question comment, a model prediction.
      const q = schema.questions;
      const { access_token: ann } = await api.login("ann@arbiter.test", PASSWORD);
      const claim = await api.request("POST", `/api/v1/projects/${project.id}/queue/next`, { token: ann, body: { stage: "label" } });
      // Annotators do not see external ids; the prompt carries it in this file.
      const DETAIL_ITEM = claim.item.item.inputs.prompt.match(/\((big-\d+)\)/)[1];
      const answers = Object.fromEntries(q.map((x) => [x.key, "yes"]));
      await api.request("POST", `/api/v1/projects/${project.id}/assignments/${claim.assignment.id}/submit`, { token: ann, body: { answers, time_spent_ms: 42_000 } });
      const { access_token: rev } = await api.login("rev@arbiter.test", PASSWORD);
      const review = await api.request("POST", `/api/v1/projects/${project.id}/queue/next`, { token: rev, body: { stage: "review" } });
      await api.request("POST", `/api/v1/projects/${project.id}/assignments/${review.assignment.id}/submit`, {
        token: rev,
        body: { verdict: "correct", answers: { ...answers, [q[1].key]: "no" }, comment: "One dimension was off.", comments: { [q[1].key]: "The apple is on a plate, not the table." } },
      });
      const preds = await fetch(`${server.url}/api/v1/projects/${project.id}/predictions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${lead}`, "Content-Type": "application/x-ndjson" },
        body: JSON.stringify({ external_id: DETAIL_ITEM, model: "judge-a", answers: { [q[0].key]: "no", [q[1].key]: "no" } }) + "\n",
      });
      assert.equal(preds.status, 200, await preds.clone().text());

      // The lead finds the item and opens its detail.
      await page.reload();
      await page.getByLabel("External id").fill(DETAIL_ITEM);
      await page.getByRole("button", { name: "Search" }).click();
      await page.locator(`tr[data-external-id="${DETAIL_ITEM}"]`).click();
      const detail = page.getByTestId("item-detail");
      await detail.getByRole("table", { name: "Answers by question" }).waitFor();
      assert.match(page.url(), /[?&]item=/);
      await page.waitForFunction(() => document.querySelector('[data-testid=item-detail] [data-input="image"] img')?.naturalWidth > 0);
      const grid = detail.getByRole("table", { name: "Answers by question" });
      assert.match(await grid.locator("thead").textContent(), /Ana Annotator.*Model judge-a.*Ground truth/);
      assert.equal(await grid.getByTestId("question-comment").textContent(), "Rui Reviewer: The apple is on a plate, not the table.");
      const work = detail.getByRole("region", { name: "Labels and reviews" });
      assert.match(await work.textContent(), /Corrected the label of Ana Annotator/);
      assert.match(await work.getByRole("list", { name: "Comments per question" }).textContent(), /The apple is on a plate, not the table\./);
      const history = detail.getByRole("region", { name: "Ground truth history" });
      t.diagnostic(`ground truth history: ${(await history.textContent()).slice(0, 200)}`);
      assert.equal(await history.locator("tr[data-revision]").count(), 1);
      assert.match(await detail.locator('[data-input="meta"]').textContent(), /e2e-large/);
      await saveShot(page, join(shots, "04-item-detail.png"));

      // Back returns to the list, filters kept.
      await page.goBack();
      await page.getByRole("table", { name: "Items" }).waitFor();
      assert.equal(await page.getByLabel("External id").inputValue(), DETAIL_ITEM);
      // An email without an account is invited like any other: nothing failed.
      assertNoConsoleErrors(errors, "lead");
      await context.close();
    },
    { prefix: "items", viewport: { width: 1440, height: 900 } },
  ));
