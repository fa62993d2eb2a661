// RoboJudge in passes, in the browser: an annotator labels two items with the
// keyboard only, each first in the Physical Adherence pass (the video alone)
// and then in the Instruction Alignment pass (with the instruction). Nothing
// the browser received before an item's second pass holds its instruction.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, withArbiter } from "./harness.mjs";
import { PASSWORD, answerAll, assertNoConsoleProblems, saveShot, signIn } from "./workflow-steps.mjs";

const shots = join(artifactsDir, "passes");
const INSTRUCTIONS = ["Stack the violet prism on the brass key.", "Slide the teal cylinder behind the mug."];

async function setup(api, url) {
  const { access_token: admin } = await api.loginAdmin();
  await api.createUser(admin, { email: "lead@arbiter.test", name: "Lena Lead", password: PASSWORD, can_create_projects: true });
  const ann = await api.createUser(admin, { email: "ann@arbiter.test", name: "Ana Annotator", password: PASSWORD });
  const { access_token: token } = await api.login("lead@arbiter.test", PASSWORD);
  const p = await api.request("POST", "/api/v1/projects", { token, body: { name: "RoboJudge in passes", template: "robojudge", workflow: { overlap: 1 } } });
  await api.setMemberRoles(admin, p.id, ann.id, ["annotator"]);
  const lines = INSTRUCTIONS.map((instruction, i) =>
    JSON.stringify({ external_id: `rj-${i + 1}`, inputs: { video: "media/robot_rollout.mp4", first_frame: "media/robot_first_frame.png", instruction, generator: "model-y" } }),
  );
  const res = await fetch(`${url}/api/v1/projects/${p.id}/items`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: lines.join("\n") + "\n",
  });
  assert.equal(res.status, 200, await res.text());
  const schema = (await api.request("GET", `/api/v1/projects/${p.id}`, { token })).schema;
  return { pid: p.id, schema };
}

/** What the work frame shows: the assignment, its pass and the pass banner. */
const shown = async (page) => {
  const work = page.getByTestId("work");
  return { key: await work.getAttribute("data-shown"), aid: await work.getAttribute("data-assignment"), banner: await page.locator("[data-testid=pass]:visible").textContent() };
};

/** Submits with Ctrl+Enter and waits for what comes next to be ready to answer: another pass, another item or the empty queue. */
async function submitAndWait(page, prev) {
  await page.keyboard.press("Control+Enter");
  await page.waitForFunction(
    (p) => document.querySelector("[data-testid=queue-empty]") || (document.querySelector("[data-testid=work]")?.dataset.shown !== p && document.activeElement?.matches(".q-card")),
    prev,
  );
}

test("passes: RoboJudge PA then IA for each item, keyboard only, the instruction never sent before its pass", (t) =>
  withArbiter(t, async ({ server, api, browser }) => {
    await mkdir(shots, { recursive: true });
    const { pid, schema } = await setup(api, server.url);
    const { context, page, problems } = await signIn(browser, server.url, "ann@arbiter.test");
    // Every API answer the browser receives, in order.
    const received = [];
    page.on("response", async (r) => {
      if (!r.url().includes("/api/")) return;
      const body = await r.text().catch(() => "");
      received.push({ url: r.url(), body });
    });
    const receivedText = () => received.map((r) => r.body).join("\n");

    await page.goto(`/projects/${pid}/annotate`);
    await page.waitForFunction(() => document.activeElement?.matches(".q-card"));
    const aids = [];
    for (let item = 0; item < 2; item++) {
      const pa = await shown(page);
      assert.match(pa.banner, /^Pass 1 of 2: Physical adherence/, `item ${item + 1} opens in pass 1`);
      aids.push(pa.aid);
      assert.equal(await page.locator(".q-card:visible").count(), 3, "pass 1 asks the three PA questions");
      await answerAll(page, schema);
      await saveShot(page, join(shots, `0${2 * item + 1}-item${item + 1}-pass1-pa.png`));
      // Nothing received so far holds this item's instruction: not the claim, the claim ahead, drafts or anything else.
      await page.waitForTimeout(1200); // note: let the autosave of pass 1 go out and answer
      for (const instruction of INSTRUCTIONS.slice(item)) assert.ok(!receivedText().includes(instruction), `"${instruction}" reached the browser before its pass`);
      assert.ok(!(await page.content()).includes(INSTRUCTIONS[item]), "the page holds no instruction in pass 1");

      await submitAndWait(page, pa.key);
      const ia = await shown(page);
      assert.equal(ia.aid, pa.aid, "the second pass is the same item");
      assert.match(ia.banner, /^Pass 2 of 2: Instruction alignment/);
      assert.ok((await page.locator(".inputs-pane:visible").textContent()).includes(INSTRUCTIONS[item]), "pass 2 shows the instruction");
      assert.equal(await page.locator(".q-card:visible").count(), 3, "pass 2 asks the three IA questions");
      await answerAll(page, schema);
      await saveShot(page, join(shots, `0${2 * item + 2}-item${item + 1}-pass2-ia.png`));
      await submitAndWait(page, ia.key);
    }
    await page.getByTestId("queue-empty").waitFor();
    await saveShot(page, join(shots, "05-queue-empty.png"));
    assert.notEqual(aids[0], aids[1], "two items were labelled");
    assertNoConsoleProblems(problems, "annotator in passes");
    await context.close();
  }));
