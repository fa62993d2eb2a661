// A lead's whole setup in the browser, from an empty server: the administrator
// makes the accounts, the lead creates a project in the New project wizard
// (a template, or a schema of their own fixed on the way), sets the policy,
// invites the team by email and imports items; the team joins, labels,
// reviews and adjudicates by keyboard, and the lead sees ground truth.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, withArbiter, ADMIN_EMAIL, ADMIN_PASSWORD } from "./harness.mjs";
import { PASSWORD, assertNoConsoleErrors, saveShot, signIn } from "./workflow-steps.mjs";
import { shootOnFailure, adjudicateAll, approveAll, createAccounts, inviteByEmail, joinProject, labelAll, signInWith, tabNames, templateMedia, zip } from "./setup-steps.mjs";

const TEAM = [
  { key: "ann1", name: "Ana Annotator", email: "ann1@arbiter.test", roles: ["annotator"] },
  { key: "ann2", name: "Ben Annotator", email: "ann2@arbiter.test", roles: ["annotator"] },
  { key: "ann3", name: "Cleo Annotator", email: "ann3@arbiter.test", roles: ["annotator"] },
  { key: "rev", name: "Rui Reviewer", email: "rev@arbiter.test", roles: ["reviewer"] },
  { key: "adj", name: "Ada Adjudicator", email: "adj@arbiter.test", roles: ["adjudicator"] },
];
const LEAD = { name: "Lena Lead", email: "lead@arbiter.test", lead: true };

/** The administrator signs in and makes the lead's and the team's accounts. */
async function makeAccounts(browser, url, shot) {
  const admin = await signInWith(browser, url, ADMIN_EMAIL, ADMIN_PASSWORD);
  await createAccounts(admin.page, [LEAD, ...TEAM]);
  await saveShot(admin.page, shot("00-admin-accounts"));
  assertNoConsoleErrors(admin.errors, "admin");
  await admin.context.close();
}

/** The lead's token, only to read what the test needs to know (the schema's question kinds, stored counts). */
async function leadToken(api) {
  return (await api.login(LEAD.email, PASSWORD)).access_token;
}

test("setup: a lead creates a D3-Omni T2I project in the browser, and the team works it to ground truth by keyboard", (t) =>
  withArbiter(
    t,
    async ({ server, api, browser }) => {
      const dir = join(artifactsDir, "setup-template");
      await mkdir(dir, { recursive: true });
      const shot = (n) => join(dir, `${n}.png`);
      await shootOnFailure(browser, dir, async () => {
      await makeAccounts(browser, server.url, shot);

      // The lead starts the wizard from the projects page and picks D3-Omni T2I in the gallery.
      const lead = await signIn(browser, server.url, LEAD.email);
      const { page } = lead;
      await page.getByRole("link", { name: "New project" }).click();
      await page.waitForURL(/\/projects\/new$/);
      await page.locator('[data-template="d3omni-t2i"]').click();
      const preview = page.getByRole("region", { name: "Preview" });
      await preview.getByRole("heading", { name: /D3-Omni text-to-image/ }).waitFor();
      await preview.locator(".q-card").first().waitFor();
      await page.waitForFunction(() => document.querySelector('[aria-label="Preview"] img')?.naturalWidth > 0);
      await saveShot(page, shot("01-wizard-template"));
      await page.getByRole("button", { name: "Next: project and workflow" }).click();

      // Name and policy; a bad value is refused at its field by the server, then fixed.
      assert.equal(await page.getByLabel("Name", { exact: true }).inputValue(), "D3-Omni text-to-image (17 dimensions)", "the name starts as the template's");
      await page.getByLabel("Name", { exact: true }).fill("D3-Omni T2I pilot");
      await page.getByLabel("Description").fill("Three labels per image, cross-reviewed, adjudicated on disagreement.");
      assert.match(await page.getByRole("textbox", { name: "Guidelines" }).inputValue(), /Examine the image thoroughly/, "the template's guidelines come along");
      const policy = page.getByTestId("policy-form");
      await policy.getByLabel("Labels per item").fill("51");
      await policy.locator('[data-field="overlap"] .field-error').getByText("overlap must be 1 to 50").waitFor();
      assert.equal(await page.getByRole("button", { name: "Create project" }).isDisabled(), true);
      await saveShot(page, shot("02-wizard-policy-error"));
      await policy.getByLabel("Labels per item").fill("3");
      await policy.getByLabel("Review", { exact: true }).selectOption("cross");
      await policy.getByLabel("Blind review").waitFor();
      await policy.getByLabel("Lease").fill("45");
      await policy.getByLabel("Show annotator names").check();
      for (const f of ["overlap", "review", "consensus.nominal", "adjudication", "lease_minutes", "spot_check_rate"]) {
        assert.ok((await policy.locator(`[data-field="${f}"] .field-hint`).textContent()).length > 20, `${f} is explained`);
      }
      const create = page.getByRole("button", { name: "Create project" });
      await page.waitForFunction(() => !document.querySelector('[data-field="overlap"] .field-error'));
      await create.waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll("button")].some((b) => b.textContent === "Create project" && !b.disabled));
      await saveShot(page, shot("03-wizard-policy"));
      await create.click();

      // Members by email: the lead is not an administrator, so each is invited.
      await page.waitForURL(/step=members/);
      const pid = new URL(page.url()).searchParams.get("project");
      await inviteByEmail(page, TEAM);
      await page.getByRole("list", { name: "Invitations" }).getByText("adj@arbiter.test").waitFor();
      await saveShot(page, shot("04-wizard-members"));

      // Items with their media: a zip of the images and the items file naming them.
      await page.getByRole("button", { name: "Next: items" }).click();
      const items = [1, 2, 3].map((i) => ({
        external_id: `d3-00${i}`,
        inputs: { prompt: `${i % 2 ? "A single red apple on a wooden table" : "Fishing boats moored in a calm harbour"} (d3-00${i})`, image: i % 2 ? "media/apple.png" : "media/boats.png", generator: "model-x" },
      }));
      const media = zip([
        { name: "media/apple.png", data: await templateMedia("apple.png") },
        { name: "media/boats.png", data: await templateMedia("boats.png") },
      ]);
      await page.getByLabel("Media archive").setInputFiles({ name: "media.zip", mimeType: "application/zip", buffer: media });
      await page.getByLabel("Items naming the media").setInputFiles({ name: "items.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(items.map((x) => JSON.stringify(x)).join("\n") + "\n") });
      await page.getByRole("button", { name: "Import with media" }).click();
      assert.match(await page.getByTestId("import-report").textContent(), /3 lines: 3 imported/);
      await saveShot(page, shot("05-wizard-items"));

      // The last step says what the policy needs of people who have not joined yet, with the numbers.
      await page.getByRole("button", { name: "Next: check and start" }).click();
      const warn = page.getByTestId("feasibility");
      await warn.waitFor();
      assert.match(await warn.locator('[data-code="annotators"]').textContent(), /overlap 3 needs 3 annotators; the project has 0 \(needed 3, have 0\)/);
      assert.match(await warn.textContent(), /adjudicat/);
      await saveShot(page, shot("06-wizard-check"));
      await page.getByRole("link", { name: "Open the project" }).click();
      await page.waitForURL(/\/overview$/);

      // The team joins from their projects page; an annotator sees only their tabs and their progress.
      const people = {};
      for (const p of TEAM) people[p.key] = await joinProject(browser, server.url, p.email, "D3-Omni T2I pilot");
      {
        const a = people.ann1.page;
        await a.getByRole("link", { name: "D3-Omni T2I pilot" }).click();
        assert.deepEqual(await tabNames(a), ["Overview", "Annotate", "My rounds"]);
        const progress = a.getByRole("table", { name: "Your progress" });
        await progress.waitFor();
        assert.match(await progress.locator('[data-stage="label"]').textContent(), /Label0030?Start|Label.*3/);
        await saveShot(a, shot("07-annotator-overview"));
        await a.goto(`/projects/${pid}/settings`);
        await a.waitForURL(/\/overview$/);
      }
      await page.reload();
      await page.getByRole("heading", { name: "Progress" }).waitFor();
      assert.equal(await page.getByTestId("feasibility").count(), 0, "no warnings once the team has joined");
      assert.deepEqual(await tabNames(page), ["Overview", "Items", "Calibration", "Agreement", "Quality", "Balance", "Report", "Judges", "Releases", "Members", "Settings"]);
      await saveShot(page, shot("08-lead-overview-ready"));

      // Three labels per item by keyboard; the third annotator differs on the first two dimensions of one item.
      const token = await leadToken(api);
      const schema = (await api.request("GET", `/api/v1/projects/${pid}`, { token })).schema;
      for (const k of ["ann1", "ann2", "ann3"]) {
        const variantFor = k === "ann3" ? (prompt, q, i) => (prompt.includes("d3-002") && i < 2 ? 1 : 0) : undefined;
        assert.equal(await labelAll(people[k].page, pid, schema, variantFor), 3, `${k} labels every item`);
      }
      await saveShot(people.ann3.page, shot("09-annotate-done"));

      // One reviewer reviews all nine labels (three per item).
      const reviewed = await approveAll(people.rev.page, pid, () => saveShot(people.rev.page, shot("10-review")));
      assert.equal(reviewed, 9, "the one reviewer reviews every label of every item");

      // The adjudicator settles the split item.
      const adjudicated = await adjudicateAll(people.adj.page, pid, "The first two labels read the scene right.", () => saveShot(people.adj.page, shot("11-adjudicate")));
      assert.equal(adjudicated, 1);

      // Ground truth for every item: unanimous twice, adjudicated once.
      await page.goto(`/projects/${pid}/items`);
      await page.waitForFunction(() => document.querySelectorAll("[data-provenance]").length === 3);
      assert.equal(await page.locator('[data-provenance="unanimous"]').count(), 2);
      assert.equal(await page.locator('tr[data-external-id="d3-002"] [data-provenance="adjudicated"]').count(), 1);
      await saveShot(page, shot("12-items-ground-truth"));
      await page.goto(`/projects/${pid}/settings`);
      const versions = page.getByRole("table", { name: "Schema versions" });
      await versions.waitFor();
      assert.match(await versions.locator('tr[data-version="1"]').textContent(), /v1\s*current.*Lena Lead\s*1919/);
      await saveShot(page, shot("13-settings"));
      for (const [who, s] of Object.entries(people)) {
        assertNoConsoleErrors(s.errors, who);
        await s.context.close();
      }
      assertNoConsoleErrors(lead.errors, "lead");
      });
    },
    { prefix: "setup-template", viewport: { width: 1440, height: 900 } },
  ));

const CUSTOM = (kind) => `# Caption check: does the image match its prompt?
version: 1
title: Caption check
inputs:
  - {name: prompt, type: text, label: Prompt}
  - {name: image, type: image, label: Image}
questions:
  - {key: matches, kind: ${kind}, label: Does the image match the prompt?, required: true}
  - {key: quality, kind: likert, label: Overall quality, required: true, min: 1, max: 5}
  - key: style
    kind: choice
    label: Style
    required: true
    options: [{key: photo, label: Photo}, {key: drawing, label: Drawing}]
`;

test("setup: a custom schema fixed on the way; overlap 3 with one reviewer finishes; stuck work explained; settings", (t) =>
  withArbiter(
    t,
    async ({ server, api, browser }) => {
      const dir = join(artifactsDir, "setup-custom");
      await mkdir(dir, { recursive: true });
      const shot = (n) => join(dir, `${n}.png`);
      await shootOnFailure(browser, dir, async () => {
        await makeAccounts(browser, server.url, shot);
        const lead = await signIn(browser, server.url, LEAD.email, { width: 1280, height: 800 });
        const { page } = lead;
        await page.getByRole("link", { name: "New project" }).click();
        await page.getByText("Upload or paste a schema").click();

        // An uploaded schema with a misspelt kind: the problem is shown at its path and Next stays off.
        await page.getByLabel("Schema file").setInputFiles({ name: "caption.yaml", mimeType: "application/yaml", buffer: Buffer.from(CUSTOM("binay")) });
        const problems = page.getByRole("list", { name: "Schema problems" });
        await problems.waitFor();
        const paths = await problems.locator("li").evaluateAll((lis) => lis.map((li) => li.dataset.path));
        t.diagnostic(`problems at ${paths.join(", ")}: ${await problems.textContent()}`);
        assert.ok(paths.length > 0 && paths.every((p) => p.startsWith("schema.questions[0]")), `the problem is at the question: ${paths}`);
        assert.equal(await page.getByRole("button", { name: "Next: project and workflow" }).isDisabled(), true);
        await saveShot(page, shot("01-schema-error"));
        const text = page.getByLabel("Schema (YAML or JSON)");
        await text.fill((await text.inputValue()).replace("kind: binay", "kind: binary"));
        await page.getByText("The server accepts this schema.").waitFor();
        await page.getByRole("region", { name: "Preview" }).getByRole("heading", { name: "Does the image match the prompt?" }).waitFor();
        await saveShot(page, shot("02-schema-fixed"));
        await page.getByRole("button", { name: "Next: project and workflow" }).click();

        // Guidelines in Markdown with a preview, and overlap 3 with cross review.
        await page.getByLabel("Name", { exact: true }).fill("Caption check");
        await page.getByRole("textbox", { name: "Guidelines" }).fill("**Look** at the image first, then read the prompt.");
        await page.getByRole("tab", { name: "Preview" }).click();
        assert.equal(await page.getByTestId("guidelines-preview").locator("strong").textContent(), "Look");
        const policy = page.getByTestId("policy-form");
        await policy.getByLabel("Labels per item").fill("3");
        await policy.getByLabel("Review", { exact: true }).selectOption("cross");
        await page.waitForFunction(() => [...document.querySelectorAll("button")].some((b) => b.textContent === "Create project" && !b.disabled));
        await saveShot(page, shot("03-policy"));
        await page.getByRole("button", { name: "Create project" }).click();
        await page.waitForURL(/step=members/);
        const pid = new URL(page.url()).searchParams.get("project");
        await inviteByEmail(page, TEAM);

        // Items through the import card, their images at URLs on the server.
        await page.getByRole("button", { name: "Next: items" }).click();
        const lines = [1, 2].map((i) =>
          JSON.stringify({ external_id: `cap-${i}`, inputs: { prompt: `${i === 1 ? "Boats in a harbour" : "An apple on a table"} (cap-${i})`, image: `/template-media/media/${i === 1 ? "boats" : "apple"}.png` } }),
        );
        await page.getByLabel("Items file", { exact: true }).setInputFiles({ name: "captions.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(lines.join("\n") + "\n") });
        await page.getByRole("button", { name: "Import", exact: true }).click();
        assert.match(await page.getByTestId("import-report").first().textContent(), /2 lines: 2 imported/);
        await saveShot(page, shot("04-items"));
        await page.getByRole("button", { name: "Next: check and start" }).click();
        await page.getByTestId("feasibility").waitFor();
        await saveShot(page, shot("05-check"));
        await page.getByRole("link", { name: "Open the project" }).click();

        // Everyone but the adjudicator joins; three labels per item, then the one reviewer reviews all six.
        const people = {};
        for (const p of TEAM.filter((p) => p.key !== "adj")) people[p.key] = await joinProject(browser, server.url, p.email, "Caption check");
        const token = await leadToken(api);
        const schema = (await api.request("GET", `/api/v1/projects/${pid}`, { token })).schema;
        for (const k of ["ann1", "ann2", "ann3"]) {
          const variantFor = k === "ann3" ? (prompt, q) => (prompt.includes("cap-2") && q.key === "quality" ? 1 : 0) : undefined;
          assert.equal(await labelAll(people[k].page, pid, schema, variantFor), 2, `${k} labels both items`);
        }
        const reviewed = await approveAll(people.rev.page, pid, () => saveShot(people.rev.page, shot("06-review")));
        assert.equal(reviewed, 6, "one reviewer reviews all three labels of both items");
        assert.deepEqual(await tabNames(people.rev.page), ["Overview", "Review"]);

        // The split item waits for an adjudicator the project does not have: the overview says so, with the reason.
        await page.goto(`/projects/${pid}/overview`);
        const stuck = page.getByTestId("stuck-work");
        await stuck.waitFor();
        assert.match(await stuck.locator('[data-stage="adjudicate"]').textContent(), /Adjudicate: 1 item — needs an adjudicator who has not worked on the item in another stage and has not adjudicated the item/);
        assert.match(await page.getByTestId("feasibility").textContent(), /needed 1, have 0/);
        await saveShot(page, shot("07-overview-stuck"));
        people.adj = await joinProject(browser, server.url, "adj@arbiter.test", "Caption check");
        await page.reload();
        await page.getByRole("heading", { name: "Progress" }).waitFor();
        await page.waitForFunction(() => !document.querySelector("[data-testid=stuck-work]") && !document.querySelector("[data-testid=feasibility]"));
        assert.equal(await adjudicateAll(people.adj.page, pid, "Two of three said 4; the image is sharp.", () => saveShot(people.adj.page, shot("08-adjudicate"))), 1);
        await page.goto(`/projects/${pid}/items`);
        await page.waitForFunction(() => document.querySelectorAll("[data-provenance]").length === 2);
        assert.equal(await page.locator('tr[data-external-id="cap-2"] [data-provenance="adjudicated"]').count(), 1);
        assert.equal(await page.locator('tr[data-external-id="cap-1"] [data-provenance="unanimous"]').count(), 1);

        // Settings: a longer lease, a reworded question (a new schema version), then archive and delete by name.
        await page.goto(`/projects/${pid}/settings`);
        const wf = page.getByRole("region", { name: "Workflow policy" });
        await wf.getByLabel("Lease").fill("60");
        await wf.getByRole("button", { name: "Save workflow" }).click();
        await wf.getByRole("status").getByText("Saved.").waitFor();
        const sc = page.getByRole("region", { name: "Schema" });
        await sc.getByRole("button", { name: "Edit the schema" }).click();
        const edit = sc.getByLabel("Schema (YAML or JSON)");
        await edit.fill((await edit.inputValue()).replace("Overall quality", "Overall image quality"));
        await sc.getByText("The server accepts this schema.").waitFor();
        await sc.getByRole("button", { name: "Save the schema" }).click();
        const versions = sc.getByRole("table", { name: "Schema versions" });
        await versions.locator('tr[data-version="2"]').waitFor();
        assert.match(await versions.locator('tr[data-version="2"]').textContent(), /v2\s*current.*00$/);
        assert.match(await versions.locator('tr[data-version="1"]').textContent(), /1313$/, "v1 holds the 6 labels, 6 reviews and the adjudication");
        await saveShot(page, shot("09-settings"));
        assert.equal((await api.request("GET", `/api/v1/projects/${pid}`, { token })).workflow.lease_minutes, 60);

        const danger = page.getByRole("region", { name: "Archive or delete" });
        await danger.getByRole("button", { name: "Archive" }).click();
        await danger.getByRole("button", { name: "Restore" }).waitFor();
        await danger.getByRole("button", { name: "Restore" }).click();
        await danger.getByRole("button", { name: "Archive" }).waitFor();
        const del = danger.getByRole("button", { name: "Delete the project" });
        await danger.getByLabel(/Type the project's name/).fill("Caption");
        assert.equal(await del.isDisabled(), true);
        await danger.getByLabel(/Type the project's name/).fill("Caption check");
        await saveShot(page, shot("10-delete"));
        await del.click();
        await page.waitForURL(/\/projects$/);
        await page.getByText("No projects yet").waitFor();
        for (const [who, s] of Object.entries(people)) {
          assertNoConsoleErrors(s.errors, who);
          await s.context.close();
        }
        assertNoConsoleErrors(lead.errors, "lead");
      });
    },
    { prefix: "setup-custom", viewport: { width: 1280, height: 800 } },
  ));
