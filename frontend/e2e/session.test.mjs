import { test } from "node:test";
import assert from "node:assert/strict";
import { withArbiter } from "./harness.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test("an expired access token is refreshed in the background; sign-out ends the session", (t) =>
  withArbiter(
    t,
    async ({ server, api, context, page, shot, consoleErrors }) => {
      const { access_token } = await api.loginAdmin();
      await api.createProject(access_token, { name: "Story track", description: "" });

      const refreshes = [];
      const userLists = [];
      page.on("response", (res) => {
        if (res.url().endsWith("/api/v1/auth/refresh")) refreshes.push(res.status());
        if (res.url().endsWith("/api/v1/users")) userLists.push(res.status());
      });

      await page.goto("/login");
      await page.getByLabel("Email").fill(server.admin.email);
      await page.getByLabel("Password").fill(server.admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("link", { name: "Story track" }).waitFor();
      assert.deepEqual(refreshes, []);

      // Let the 2-second access token expire, then use the app: the 401
      // token_expired is answered by one refresh and the page still loads.
      await sleep(2500);
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
      await page.getByRole("cell", { name: server.admin.email }).waitFor();
      assert.deepEqual(userLists, [401, 200], "expired once, retried after the refresh");
      assert.deepEqual(refreshes, [200]);
      await shot("after-refresh");

      // The rotated refresh token is the one kept: a reload restores the session.
      await page.reload();
      await page.getByRole("cell", { name: server.admin.email }).waitFor();
      assert.deepEqual(refreshes, [200, 200]);

      // Sign out: the refresh cookie is cleared and the server refuses the old token.
      const cookie = (await context.cookies()).find((c) => c.name === "arbiter_refresh");
      assert.ok(cookie?.value.startsWith("arb_rt_"), "the session lives in the refresh cookie");
      assert.equal(await page.evaluate(() => window.localStorage.getItem("arbiter.refresh_token")), null);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/login/);
      assert.equal((await context.cookies()).find((c) => c.name === "arbiter_refresh"), undefined);
      const again = await fetch(`${server.url}/api/v1/auth/refresh`, {
        method: "POST",
        headers: { Cookie: `arbiter_refresh=${cookie.value}`, "X-Arbiter-CSRF": "1" },
      });
      assert.equal(again.status, 401);
      await shot("signed-out");

      assert.deepEqual(consoleErrors.filter((e) => !/status of 401/.test(e)), [], "no console errors");
    },
    { prefix: "session", serverEnv: { ARBITER_ACCESS_TOKEN_TTL: "2s" } },
  ));
