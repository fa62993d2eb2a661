// Leaving the Annotate page gives back the item claimed ahead, so another
// person can claim it at once instead of waiting for its lease to run out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withArbiter } from "./harness.mjs";
import { PASSWORD, signIn } from "./workflow-steps.mjs";

const item = (i) => ({
  external_id: `rel-${i}`,
  inputs: { prompt: `A single red apple on a wooden table (rel-${i})`, image: "media/apple.png", generator: "model-x" },
});

test("leaving Annotate releases the item claimed ahead", async (t) => {
  await withArbiter(t, async ({ server, api, browser }) => {
    const { access_token: admin } = await api.loginAdmin();
    const lead = await api.createUser(admin, { email: "lead@arbiter.test", name: "Lena Lead", password: PASSWORD, can_create_projects: true });
    const ann = await api.createUser(admin, { email: "ann@arbiter.test", name: "Ana Annotator", password: PASSWORD });
    const { access_token: leadToken } = await api.login("lead@arbiter.test", PASSWORD);
    const p = await api.request("POST", "/api/v1/projects", { token: leadToken, body: { name: "Release pilot", template: "d3omni-t2i", workflow: { overlap: 1 } } });
    // An administrator adds people at once (a lead would invite them).
    await api.setMemberRoles(admin, p.id, ann.id, ["annotator"]);
    await api.setMemberRoles(admin, p.id, lead.id, ["lead", "annotator"]);
    const res = await fetch(`${server.url}/api/v1/projects/${p.id}/items`, {
      method: "POST",
      headers: { Authorization: `Bearer ${leadToken}`, "Content-Type": "application/x-ndjson" },
      body: [1, 2].map((i) => JSON.stringify(item(i))).join("\n") + "\n",
    });
    assert.equal(res.status, 200, await res.text());

    const { page } = await signIn(browser, server.url, "ann@arbiter.test");
    const aheadClaimed = page.waitForResponse((r) => r.url().endsWith("/queue/next") && (r.request().postData() ?? "").includes('"prefetch":true'));
    await page.goto(`/projects/${p.id}/annotate`);
    const ahead = await (await aheadClaimed).json();
    const shown = await page.getByTestId("work").getAttribute("data-assignment");
    assert.ok(shown && ahead.assignment.id !== shown, "an item is shown and another one claimed ahead");

    // Both items are held by the annotator: the lead gets nothing.
    const none = await fetch(`${server.url}/api/v1/projects/${p.id}/queue/next`, {
      method: "POST",
      headers: { Authorization: `Bearer ${leadToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ stage: "label" }),
    });
    assert.equal(none.status, 204);

    // Leave through the app's own navigation.
    const released = page.waitForResponse((r) => r.url().endsWith(`/assignments/${ahead.assignment.id}/release`));
    await page.getByRole("link", { name: "Overview" }).click();
    assert.equal((await released).status(), 204);

    const again = await api.request("POST", `/api/v1/projects/${p.id}/queue/next`, { token: leadToken, body: { stage: "label" } });
    assert.equal(again?.item?.item?.external_id, ahead.item.item.external_id, "the item claimed ahead is claimable again");
  });
});
