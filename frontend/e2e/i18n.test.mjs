// A user created with "locale": "zh-CN" signs in (the login form in the browser's English),
// opens Annotate and works in Simplified Chinese, then switches to English on the Account page
// and the screen changes at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { screenshot, withArbiter } from "./harness.mjs";
import { PASSWORD, signIn } from "./workflow-steps.mjs";

test("a zh-CN user annotates in Chinese and switches to English on the Account page", (t) =>
  withArbiter(t, async ({ server, api, browser }) => {
    const { access_token: admin } = await api.loginAdmin();
    const mei = await api.request("POST", "/api/v1/users", {
      token: admin,
      body: { email: "mei@arbiter.test", name: "王美", password: PASSWORD, locale: "zh-CN" },
    });
    assert.equal(mei.locale, "zh-CN");
    const project = await api.request("POST", "/api/v1/projects", {
      token: admin,
      body: { name: "Caption ratings", template: "likert-rating", guidelines: "Rate how well the caption fits the prompt.", workflow: { overlap: 1 } },
    });
    await api.setMemberRoles(admin, project.id, mei.id, ["annotator"]);
    const res = await fetch(`${server.url}/api/v1/projects/${project.id}/items`, {
      method: "POST",
      headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/x-ndjson" },
      body: JSON.stringify({ external_id: "cap-1", inputs: { prompt: "A red apple on a table", output: [{ id: "o1", type: "text", value: "A shiny red apple sits on a wooden table." }] } }) + "\n",
    });
    assert.equal(res.status, 200, await res.clone().text());

    const { page, errors } = await signIn(browser, server.url, "mei@arbiter.test");
    await page.goto(`/projects/${project.id}/annotate`);
    await page.getByRole("button", { name: /跳过/ }).waitFor();
    assert.equal(await page.locator("html").getAttribute("lang"), "zh-CN");
    for (const text of ["标注指南", "已回答 0/", "你的队列", "用时"]) await page.getByText(text, { exact: false }).first().waitFor();
    await page.getByRole("button", { name: /标记问题/ }).waitFor();
    await page.getByRole("button", { name: /^提交/ }).waitFor();
    // The project's own words stay as the project gives them.
    await page.getByText("Rate how well the caption fits the prompt.").waitFor();
    assert.equal(await page.getByRole("button", { name: /^Skip/ }).count(), 0);
    await screenshot(page, "i18n-01-annotate-zh-CN");

    await page.goto("/account");
    await page.getByRole("heading", { name: "我的账户" }).waitFor();
    const select = page.getByLabel("语言", { exact: true });
    assert.equal(await select.inputValue(), "zh-CN");
    await select.selectOption("en");
    await page.getByRole("heading", { name: "My account" }).waitFor();
    await page.goto(`/projects/${project.id}/annotate`);
    await page.getByRole("button", { name: /^Skip/ }).waitFor();
    const me = await api.request("GET", "/api/v1/me", { token: (await api.login("mei@arbiter.test", PASSWORD)).access_token });
    assert.equal(me.locale, "en");
    assert.deepEqual(errors, []);
  }));

