import { test } from "node:test";
import assert from "node:assert/strict";
import { screenshot, withArbiter } from "./harness.mjs";

async function signIn(page, email, password) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/projects$/);
}

test("admin creates a user, gives them a role, and manages access tokens", (t) =>
  withArbiter(
    t,
    async ({ server, api, browser, page, shot, consoleErrors }) => {
      const { access_token } = await api.loginAdmin();
      const project = await api.createProject(access_token, { name: "Omni-Reward pilot", description: "Pairwise preference." });

      await signIn(page, server.admin.email, server.admin.password);

      // Users page: create an annotator account.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
      await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
      await page.getByRole("button", { name: "New user" }).click();
      const userForm = page.getByRole("form", { name: "New user" });
      await userForm.getByLabel("Name").fill("Ann Otator");
      await userForm.getByLabel("Email").fill("ann@arbiter.test");
      await userForm.getByLabel("Initial password").fill("ann-Password-123");
      await userForm.getByRole("button", { name: "Create user" }).click();
      await page.getByRole("cell", { name: "ann@arbiter.test" }).waitFor();
      await shot("users");

      // Members tab: add her by email as annotator and reviewer.
      await page.goto(`/projects/${project.id}/members`);
      const memberForm = page.getByRole("form", { name: "Set member roles" });
      await memberForm.getByLabel("Email or user id").fill("ann@arbiter.test");
      await memberForm.getByLabel("reviewer").check();
      await memberForm.getByRole("button", { name: "Save roles" }).click();
      const annRow = page.getByRole("row", { name: /ann@arbiter\.test/ });
      await annRow.waitFor();
      assert.match(await annRow.textContent(), /annotator.*reviewer/);
      await shot("members-added");

      // Edit her roles inline: drop reviewer.
      await annRow.getByRole("button", { name: /Edit roles/ }).click();
      await annRow.getByLabel("reviewer").uncheck();
      await annRow.getByRole("button", { name: "Save" }).click();
      await annRow.getByRole("button", { name: /Edit roles/ }).waitFor();
      assert.doesNotMatch(await annRow.textContent(), /reviewer/);

      // Her languages: typed as a list, saved with Enter, shown canonical.
      assert.match(await annRow.textContent(), /All/);
      await annRow.getByRole("button", { name: "Edit languages of ann@arbiter.test" }).click();
      await annRow.getByLabel("Languages of ann@arbiter.test").fill("EN, zh-hans");
      await annRow.getByLabel("Languages of ann@arbiter.test").press("Enter");
      await annRow.getByText("en, zh-Hans").waitFor();
      await shot("members-languages");

      // Tokens: create one, it is shown once, listed by prefix, then revoked.
      await page.getByRole("link", { name: "Access tokens" }).click();
      await page.getByRole("heading", { name: "Personal access tokens" }).waitFor();
      await page.getByLabel("Name").fill("nightly import");
      await page.getByRole("button", { name: "Create token" }).click();
      const tokenValue = (await page.getByTestId("new-token").textContent()).trim();
      assert.ok(tokenValue.length >= 20, "the new token is shown");
      const tokenRow = page.getByRole("row", { name: /nightly import/ });
      await tokenRow.waitFor();
      await shot("token-created");

      // The token works as a bearer token against the API.
      const me = await api.request("GET", "/api/v1/me", { token: tokenValue });
      assert.equal(me.email, server.admin.email);

      page.once("dialog", (d) => d.accept());
      await tokenRow.getByRole("button", { name: "Revoke nightly import" }).click();
      await tokenRow.waitFor({ state: "detached" });
      await page.getByTestId("new-token").getByText(tokenValue).waitFor(); // still on screen until dismissed
      await assert.rejects(api.request("GET", "/api/v1/me", { token: tokenValue }), /401/);
      await shot("token-revoked");

      // Ann signs in: she sees the project with her role and no admin pages.
      const annContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: server.url });
      const annPage = await annContext.newPage();
      await signIn(annPage, "ann@arbiter.test", "ann-Password-123");
      const card = annPage.getByRole("listitem").filter({ hasText: "Omni-Reward pilot" });
      await card.waitFor();
      assert.match(await card.textContent(), /annotator/);
      assert.equal(await annPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).count(), 0);
      await screenshot(annPage, "admin-05-annotator-view");
      await annContext.close();

      // Signing out returns to the login page and the session is gone after a reload.
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/login/);
      await page.goto("/projects");
      await page.waitForURL(/\/login/);

      assert.deepEqual(consoleErrors.filter((e) => !/status of 40[13]/.test(e)), [], "no console errors");
    },
    { prefix: "admin" },
  ));
