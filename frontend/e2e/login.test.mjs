import { test } from "node:test";
import assert from "node:assert/strict";
import { withArbiter } from "./harness.mjs";

test("admin signs in, creates a project and opens it", (t) =>
  withArbiter(
    t,
    async ({ server, api, page, shot, consoleErrors }) => {
      // A signed-out visitor to / lands on the login form.
      await page.goto("/");
      await page.waitForURL(/\/login/);
      await page.getByRole("form", { name: "Sign in" }).waitFor();
      await shot("login-page");

      // A wrong password is refused with the server's message.
      await page.getByLabel("Email").fill(server.admin.email);
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      const alert = page.getByRole("alert");
      await alert.waitFor();
      assert.notEqual((await alert.textContent()).trim(), "");
      await shot("login-refused");

      // The right password shows the projects page.
      await page.getByLabel("Password").fill(server.admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/projects$/);
      await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
      const who = await page.getByTestId("current-user").textContent();
      assert.ok(who.length > 0, "top bar shows the signed-in user");
      await shot("projects-empty");

      // Create a project through the wizard: a template, then its name.
      await page.getByRole("link", { name: "New project" }).click();
      await page.locator('[data-template="robojudge"]').click();
      await page.getByRole("button", { name: "Next: project and workflow" }).click();
      await page.getByLabel("Name", { exact: true }).fill("RoboJudge-Bench pilot");
      await page.getByLabel("Description").fill("Physical adherence and instruction alignment, 1–5 with checklists.");
      await shot("create-project-form");
      await page.getByRole("button", { name: "Create project" }).click();
      await page.waitForURL(/step=members/);
      await page.getByRole("link", { name: "Projects", exact: true }).click();
      const link = page.getByRole("link", { name: "RoboJudge-Bench pilot" });
      await link.waitFor();
      await shot("projects-with-new-project");

      // The server has it too, with the creator as lead.
      const { access_token } = await api.loginAdmin();
      const projects = await api.listProjects(access_token);
      const created = projects.find((p) => p.name === "RoboJudge-Bench pilot");
      assert.ok(created, "project exists on the server");

      // Open it: overview tab of the project page.
      await link.click();
      await page.waitForURL(new RegExp(`/projects/${created.id}/overview$`));
      await page.getByRole("heading", { name: "RoboJudge-Bench pilot", level: 1 }).waitFor();
      const tabs = page.getByRole("navigation", { name: "Project sections" });
      // The template's policy is the paper's: label, cross review, expert adjudication.
      for (const tab of ["Overview", "Items", "Annotate", "Review", "Adjudicate", "Agreement", "Members", "Settings"]) {
        await tabs.getByRole("link", { name: tab, exact: true }).waitFor();
      }
      assert.equal(created.workflow.review, "cross");
      assert.equal(created.workflow.adjudication, "always");
      await shot("project-overview");

      // Members lists the creator as lead.
      await tabs.getByRole("link", { name: "Members" }).click();
      await page.waitForURL(/\/members$/);
      const row = page.getByRole("row", { name: new RegExp(server.admin.email) });
      await row.waitFor();
      assert.match(await row.textContent(), /lead/);
      await shot("project-members");

      // A reload on a client-side route is served index.html and keeps the session.
      await page.reload();
      await page.getByRole("heading", { name: "RoboJudge-Bench pilot", level: 1 }).waitFor();
      assert.match(page.url(), /\/members$/);

      assert.deepEqual(consoleErrors.filter((e) => !/status of 401/.test(e)), [], "no console errors");
    },
    { prefix: "login" },
  ));
