// Judge Anything's checklist refinement as a stage of the judging project, in the
// browser: a project made from the judgeanything-score template (whose policy refines
// checklists first) hands an item with a drafted checklist to one annotator on the
// "Refine checklists" tab, who keeps, drops, rewords and adds entries and submits; the
// item then reaches another annotator's Label stage showing the refined checklist, not
// the drafted one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, viewShot, withArbiter } from "./harness.mjs";
import { PASSWORD, assertNoConsoleProblems, importNdjson, signIn } from "./workflow-steps.mjs";

const shots = join(artifactsDir, "checklist-stage");
const RUBRICS = ["relevance", "trustworthiness", "creativity", "clarity", "coherence", "completeness"];
const DRAFTED = {
  relevance: ["Identifies the object as an apple", "Gives at least one use", "Mentions that apples grow on trees"],
  trustworthiness: ["States nothing false about apples"],
  creativity: ["Suggests an unexpected use"],
  clarity: ["Is easy to follow"],
  coherence: ["The description and the use fit together"],
  completeness: ["Covers both the object and its use"],
};
const ADDED = "Does not invent details the image does not show";

test("a drafted checklist is refined on its own tab, then labeled with the refined list", async (t) => {
  await mkdir(shots, { recursive: true });
  await withArbiter(t, async ({ server, api, browser }) => {
    const { access_token: admin } = await api.loginAdmin();
    const people = {};
    for (const who of ["lead", "refiner", "judge"]) {
      people[who] = await api.createUser(admin, { email: `${who}@arbiter.test`, name: who, password: PASSWORD, can_create_projects: who === "lead" });
    }
    const lead = (await api.login("lead@arbiter.test", PASSWORD)).access_token;
    const p = await api.request("POST", "/api/v1/projects", { token: lead, body: { name: "Judge Anything scores", template: "judgeanything-score" } });
    assert.deepEqual(p.workflow.checklist_stage, { form: "checklist" }, "the template's policy refines checklists first");
    for (const who of ["refiner", "judge"]) await api.setMemberRoles(admin, p.id, people[who].id, ["annotator"]);
    const line = {
      external_id: "ja-i2t-0031",
      meta: { task_name: "Image2Text" },
      inputs: { question: "Describe the object and say what it could be used for.", response: [{ id: "r-31", type: "text", value: "A red apple; you can eat it." }], checklist: DRAFTED },
    };
    await importNdjson(server, lead, `/api/v1/projects/${p.id}/items`, [line]);

    const refiner = await signIn(browser, server.url, "refiner@arbiter.test");
    await refiner.page.goto(`/projects/${p.id}/annotate`);
    await refiner.page.getByRole("tab", { name: "Refine checklists" }).click();
    const first = refiner.page.locator(".list-edit").first();
    await first.getByText(DRAFTED.relevance[0]).waitFor();
    for (const rubric of RUBRICS) {
      const card = refiner.page.locator(".q-card").nth(RUBRICS.indexOf(rubric));
      const entries = card.locator(".list-edit > li");
      for (let i = 0; i < DRAFTED[rubric].length; i++) {
        const op = rubric === "relevance" && i === 2 ? "drop" : rubric === "relevance" && i === 1 ? "reword" : "keep";
        await entries.nth(i).getByRole("button", { name: op, exact: true }).click();
      }
      if (rubric === "relevance") {
        await card.locator("input[data-reword='1']").fill("Names one use of an apple");
        const add = card.getByPlaceholder("Add an entry and press Enter");
        await add.fill(ADDED);
        await add.press("Enter");
        await card.getByText("3 of 3 decided · 3 kept").waitFor();
      } else {
        await card.getByText("1 of 1 decided · 1 kept").waitFor();
      }
    }
    await refiner.page.getByText("6/6 answered").waitFor();
    await viewShot(refiner.page, shots, "refine", { width: 1440 });
    await refiner.page.keyboard.press("Control+Enter");
    await refiner.page.getByTestId("queue-empty").waitFor();

    const items = await api.request("GET", `/api/v1/projects/${p.id}/items`, { token: lead });
    const it = (items.items ?? items).find((x) => x.external_id === "ja-i2t-0031");
    assert.equal(it.stage, "label", "a refined item moves to labeling");

    const judge = await signIn(browser, server.url, "judge@arbiter.test");
    await judge.page.goto(`/projects/${p.id}/annotate`);
    const inputs = judge.page.locator(".inputs-pane:visible");
    await inputs.getByText(ADDED).waitFor();
    await inputs.getByText("Names one use of an apple").waitFor();
    assert.equal(await inputs.getByText(DRAFTED.relevance[2]).count(), 0, "the dropped entry is not shown to the judge");
    await viewShot(judge.page, shots, "label-with-refined", { width: 1440 });
    assertNoConsoleProblems(refiner.problems, "the refiner");
    assertNoConsoleProblems(judge.problems, "the judge");
  });
});
