// A lead's work that needed the API before, done in the browser: model
// predictions imported from the Judges tab (upload, line report, leaderboard),
// and an item a rejected label stranded handed to a named member from the
// overview's stuck-work banner; the annotator whose label was rejected reads
// the reviewer's reason on their own overview.
import { test } from "node:test";
import assert from "node:assert/strict";
import { screenshot, withArbiter } from "./harness.mjs";
import { PASSWORD, importNdjson, signIn } from "./workflow-steps.mjs";

const schema = {
  version: 1,
  title: "Image count check",
  inputs: [{ name: "prompt", type: "text", label: "Prompt" }],
  questions: [
    { key: "count_ok", kind: "binary", label: "Is the count right?", short_label: "Count", required: true },
    { key: "quality", kind: "likert", label: "Overall quality", short_label: "Quality", required: true, min: 1, max: 5 },
  ],
};

/** Makes accounts with the e2e password and returns their access tokens and ids by email. */
async function people(api, admin, emails) {
  const out = {};
  for (const email of emails) {
    const u = await api.createUser(admin, { email, name: email.split("@")[0].replace(/^./, (c) => c.toUpperCase()), password: PASSWORD, can_create_projects: email.startsWith("lead") });
    const { access_token } = await api.login(email, PASSWORD);
    out[email] = { id: u.id, token: access_token };
  }
  return out;
}

test("the Judges tab imports a predictions file and scores it", async (t) => {
  await withArbiter(t, async ({ server, api, browser }) => {
    const { access_token: admin } = await api.loginAdmin();
    const { "lead@arbiter.test": lead } = await people(api, admin, ["lead@arbiter.test"]);
    const p = await api.request("POST", "/api/v1/projects", { token: lead.token, body: { name: "Count judges", schema } });
    const N = 20;
    const truth = (i) => ({ count_ok: i % 3 === 0 ? "no" : "yes", quality: 1 + (i % 5) });
    const items = Array.from({ length: N }, (_, i) => ({
      external_id: `img-${String(i).padStart(2, "0")}`,
      inputs: { prompt: `Draw ${i} apples.` },
      ground_truth: { answers: truth(i), provenance: "constructed" },
    }));
    await importNdjson(server, lead.token, `/api/v1/projects/${p.id}/items`, items);

    const { page, errors } = await signIn(browser, server.url, "lead@arbiter.test");
    let step = 0;
    const shot = (name) => screenshot(page, `judges-import-${String(++step).padStart(2, "0")}-${name}`);
    await page.goto(`/projects/${p.id}/judges`);
    await page.getByText("No predictions yet").waitFor({ timeout: 30_000 });
    const card = page.getByRole("region", { name: "Import predictions" });
    assert.equal(
      await card.getByTestId("predictions-example").textContent(),
      '{"external_id":"item-0001","model":"judge-a","answers":{"count_ok":"yes","quality":5}}',
    );
    await card.getByRole("button", { name: /answer of each question/ }).click();
    assert.match(await card.getByRole("table", { name: "Answers a prediction may give" }).textContent(), /quality.*an integer 1–5/);
    await shot("empty");

    // judge-ui: right on every item but one in four; then a line for an unknown item and one out of range
    const lines = items.map((it, i) => ({ external_id: it.external_id, model: "judge-ui", answers: i % 4 === 0 ? { count_ok: truth(i).count_ok === "yes" ? "no" : "yes", quality: 3 } : truth(i) }));
    lines.push({ external_id: "img-99", model: "judge-ui", answers: { count_ok: "yes" } });
    lines.push({ external_id: "img-01", model: "judge-ui", answers: { quality: 9 } });
    await card.getByLabel("Predictions file").setInputFiles({
      name: "judge-ui.jsonl",
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n"),
    });
    await card.getByRole("button", { name: "Import" }).click();
    const report = card.getByTestId("import-report");
    await report.waitFor({ timeout: 30_000 });
    assert.equal(await report.getByRole("status").textContent(), `${N + 2} lines: ${N} predictions accepted, 2 with errors.`);
    const rows = await report.getByRole("table", { name: "Lines with errors" }).locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.equal(rows.length, 2, JSON.stringify(rows));
    assert.deepEqual(rows[0].slice(0, 2), [String(N + 1), "external_id"]);
    assert.match(rows[0][2], /no item with external_id "img-99"/);
    assert.match(rows[0][3], /Import the item first/);
    assert.deepEqual(rows[1].slice(0, 2), [String(N + 2), "quality"]);
    assert.match(rows[1][2], /outside 1\.\.5/);

    // the leaderboard scores the new model without a reload
    const board = page.getByRole("table", { name: "Leaderboard Is the count right?" });
    await board.waitFor({ timeout: 60_000 });
    const models = await board.locator("tbody tr").evaluateAll((trs) => trs.map((r) => r.getAttribute("data-model")));
    assert.deepEqual(models, ["judge-ui"]);
    for (const id of ["chart-scatter", "chart-judges-count_ok"]) await page.getByTestId(id).locator("svg path").first().waitFor({ state: "attached" });
    await card.scrollIntoViewIfNeeded();
    await shot("imported");
    await board.scrollIntoViewIfNeeded();
    await shot("leaderboard");
    assert.deepEqual(errors, []);
  });
});

test("a stuck item is handed to a named member from the banner, and its rejected annotator reads why", async (t) => {
  await withArbiter(t, async ({ server, api, browser }) => {
    const { access_token: admin } = await api.loginAdmin();
    const emails = ["lead@arbiter.test", "ann@arbiter.test", "ben@arbiter.test", "cleo@arbiter.test", "rita@arbiter.test", "noor@arbiter.test"];
    const u = await people(api, admin, emails);
    const [lead, ann, ben, cleo, rita, noor] = emails.map((e) => u[e]);
    const p = await api.request("POST", "/api/v1/projects", {
      token: lead.token,
      body: { name: "Count review", schema, workflow: { overlap: 3, review: "cross" } },
    });
    // the administrator adds the members at once (a lead would invite them by email)
    for (const a of [ann, ben, cleo]) await api.setMemberRoles(admin, p.id, a.id, ["annotator"]);
    await api.setMemberRoles(admin, p.id, rita.id, ["reviewer"]);
    await api.setMemberRoles(admin, p.id, noor.id, ["viewer"]);
    await importNdjson(server, lead.token, `/api/v1/projects/${p.id}/items`, [{ external_id: "img-1", inputs: { prompt: "Draw three cats." } }]);
    const work = async (who, stage, body) => {
      const claim = await api.request("POST", `/api/v1/projects/${p.id}/queue/next`, { token: who.token, body: { stage } });
      await api.request("POST", `/api/v1/projects/${p.id}/assignments/${claim.assignment.id}/submit`, { token: who.token, body: { time_spent_ms: 20_000, ...body(claim) } });
      return claim;
    };
    for (const [who, count] of [[ann, "yes"], [ben, "yes"], [cleo, "no"]]) await work(who, "label", () => ({ answers: { count_ok: count, quality: 4 } }));
    const reason = "There are three cats in the picture; the count is right.";
    for (let i = 0; i < 3; i++) {
      await work(rita, "review", (claim) =>
        claim.context.label.answers.count_ok === "no"
          ? { verdict: "reject", comment: reason, comments: { count_ok: "count the cat behind the sofa" } }
          : { verdict: "approve" },
      );
    }

    const { page, errors } = await signIn(browser, server.url, "lead@arbiter.test");
    let step = 0;
    const shot = (pg, name) => screenshot(pg, `stuck-handover-${String(++step).padStart(2, "0")}-${name}`);
    await page.goto(`/projects/${p.id}`);
    const banner = page.getByTestId("stuck-work");
    await banner.waitFor({ timeout: 30_000 });
    assert.match(await banner.locator('li[data-stage="label"]').textContent(), /Label: 1 item/);
    await banner.getByRole("button", { name: "Hand to someone…" }).click();
    const form = banner.getByRole("form", { name: "Hand over Label work" });
    const person = form.getByLabel("Give it to");
    await form.getByRole("option", { name: /Noor/ }).waitFor({ state: "attached" });
    const options = await person.locator("option").allTextContents();
    assert.deepEqual(options, ["Choose a member", "Lead <lead@arbiter.test> — adds the annotator role", "Noor <noor@arbiter.test> — adds the annotator role"]);
    await person.selectOption({ label: "Noor <noor@arbiter.test> — adds the annotator role" });
    await shot(page, "banner");
    await form.getByRole("button", { name: "Hand over" }).click();
    const handed = page.getByTestId("stuck-handed");
    await handed.waitFor();
    assert.match(await handed.textContent(), /^Held for Noor \(now an annotator\) until .+: their next claim in the Label stage gives it to them\.$/);
    await banner.waitFor({ state: "detached", timeout: 20_000 });
    await shot(page, "handed");
    // Noor's next label claim is the stranded item
    const claim = await api.request("POST", `/api/v1/projects/${p.id}/queue/next`, { token: noor.token, body: { stage: "label" } });
    assert.equal(claim.item.item.inputs.prompt, "Draw three cats.");
    assert.deepEqual(errors, []);

    // Cleo reads why her label was rejected, and nothing of who rejected it
    const mine = await signIn(browser, server.url, "cleo@arbiter.test");
    await mine.page.goto(`/projects/${p.id}`);
    const rejected = mine.page.getByRole("region", { name: "Rejected in review" });
    await rejected.waitFor({ timeout: 20_000 });
    assert.match(await rejected.textContent(), new RegExp(reason));
    assert.match(await rejected.textContent(), /Count.*count the cat behind the sofa/);
    assert.doesNotMatch(await rejected.textContent(), /Rita|rita@/);
    await rejected.scrollIntoViewIfNeeded();
    await shot(mine.page, "annotator-reason");
    assert.deepEqual(mine.errors, []);
  });
});
