// A lead releases a project from the Releases tab: starts the release, sees it
// progress, then downloads the whole release as one zip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { screenshot, withArbiter } from "./harness.mjs";
import { PASSWORD, signIn } from "./workflow-steps.mjs";

const N = 6000;

function items() {
  const lines = [];
  for (let i = 0; i < N; i++) {
    lines.push(
      JSON.stringify({
        external_id: `apple-${i}`,
        inputs: { prompt: `A red apple, take ${i}`, output: [{ id: "o1", type: "text", value: `An apple on a table (${i}).` }] },
        meta: { batch: `b${i % 4}` },
        ground_truth: { answers: { quality: 1 + (i % 5) }, provenance: "rule" },
      }),
    );
  }
  return lines.join("\n") + "\n";
}

test("a lead starts a release, watches it progress and downloads the archive", async (t) => {
  await withArbiter(t, async ({ server, api, browser }) => {
    const { access_token: admin } = await api.loginAdmin();
    const lead = await api.createUser(admin, { email: "lead@arbiter.test", name: "Lena Lead", password: PASSWORD });
    const p = await api.request("POST", "/api/v1/projects", { token: admin, body: { name: "Apple ratings", template: "likert-rating" } });
    await api.setMemberRoles(admin, p.id, lead.id, ["lead"]);
    const res = await fetch(`${server.url}/api/v1/projects/${p.id}/items`, {
      method: "POST",
      headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/x-ndjson" },
      body: items(),
    });
    assert.equal(res.status, 200, await res.text());

    const { page, errors } = await signIn(browser, server.url, "lead@arbiter.test");
    const shot = (name) => screenshot(page, `dataset-release-${name}`);
    await page.goto(`/projects/${p.id}/releases`);
    await page.getByLabel("Name", { exact: true }).fill("v1");
    await page.getByLabel("By ratio").check();
    await page.getByLabel("Raw labels and reviews (annotators pseudonymised)").check();
    await page.getByRole("button", { name: "Start release" }).click();

    const progress = page.getByRole("progressbar", { name: "Release v1" });
    await progress.waitFor({ state: "visible" });
    await shot("1-progress");

    const archive = page.getByRole("button", { name: "Download archive (.zip)" });
    await archive.waitFor({ state: "visible", timeout: 120_000 });
    assert.equal(await progress.count(), 0, "the progress bar is gone once the release is done");
    const summary = page.locator("[data-status=done]");
    assert.match(await summary.innerText(), new RegExp(`${N.toLocaleString("en-US")}|${N}`));
    await shot("2-done");

    const downloaded = page.waitForEvent("download");
    await archive.click();
    const download = await downloaded;
    assert.match(download.suggestedFilename(), /^Apple-ratings-v1\.zip$/);
    const zip = await readFile(await download.path());
    assert.equal(zip.subarray(0, 2).toString("latin1"), "PK", "the download is a zip");
    assert.ok(zip.length > 100_000, `a zip of ${zip.length} bytes`);

    await page.getByRole("button", { name: "Show files" }).click();
    await page.getByRole("table", { name: "Files of v1" }).getByRole("link", { name: "manifest.json" }).waitFor();
    await shot("3-files");
    assert.deepEqual(errors, []);
  });
});
