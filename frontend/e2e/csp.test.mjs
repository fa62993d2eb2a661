// Browser headers: every page of the UI loads under the server's Content-Security-Policy
// without a single violation, the built index.html has no inline script or style, and the
// refresh token is out of reach of page scripts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withArbiter } from "./harness.mjs";

const item = (i) => ({
  external_id: `csp-${i}`,
  inputs: { prompt: `A single red apple on a wooden table (csp-${i})`, image: "media/apple.png", generator: "model-x" },
});

test("every page loads under the Content-Security-Policy without a violation", (t) =>
  withArbiter(t, async ({ server, api, context, page, consoleErrors }) => {
    const index = await fetch(server.url + "/");
    const html = await index.text();
    const csp = index.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(index.headers.get("x-content-type-options"), "nosniff");
    assert.ok(index.headers.get("referrer-policy"), "a Referrer-Policy");
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\bsrc=/, `inline script in index.html: ${tag}`);
    assert.doesNotMatch(html, /<style\b|\sstyle=/, "inline style in index.html");

    const { access_token: admin } = await api.loginAdmin();
    const p = await api.request("POST", "/api/v1/projects", {
      token: admin,
      body: { name: "CSP pilot", template: "d3omni-t2i", workflow: { overlap: 1 } },
    });
    const res = await fetch(`${server.url}/api/v1/projects/${p.id}/items`, {
      method: "POST",
      headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/x-ndjson" },
      body: [1, 2].map((i) => JSON.stringify(item(i))).join("\n") + "\n",
    });
    assert.equal(res.status, 200, await res.text());

    await context.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    const violations = [];
    const visit = async (path, ready) => {
      await page.goto(path);
      await ready();
      await page.waitForTimeout(300);
      violations.push(...(await page.evaluate(() => window.__cspViolations)).map((v) => `${path}: ${v}`));
    };

    await visit("/reset-password#token=arb_reset_nothing", () => page.getByRole("heading", { name: "Set a new password" }).waitFor());
    await visit("/login", () => page.getByRole("button", { name: "Sign in" }).waitFor());
    await page.getByLabel("Email").fill(server.admin.email);
    await page.getByLabel("Password").fill(server.admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "CSP pilot" }).waitFor();

    const main = () => page.locator("main, .page").first().waitFor();
    for (const path of [
      "/projects",
      `/projects/${p.id}/overview`,
      `/projects/${p.id}/items`,
      `/projects/${p.id}/annotate`,
      `/projects/${p.id}/review`,
      `/projects/${p.id}/adjudicate`,
      `/projects/${p.id}/agreement`,
      `/projects/${p.id}/quality`,
      `/projects/${p.id}/calibration`,
      `/projects/${p.id}/rounds`,
      `/projects/${p.id}/members`,
      `/projects/${p.id}/settings`,
      "/admin/users",
      "/settings/tokens",
      "/account",
      "/templates",
      "/templates/d3omni-t2i",
      "/no-such-page",
    ]) {
      await visit(path, main);
    }
    const consoleCSP = consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e));
    assert.deepEqual([...violations, ...consoleCSP], [], "no page breaks the Content-Security-Policy");

    // The refresh token is in an HttpOnly cookie: no script and no storage can read it.
    const cookies = await context.cookies();
    const refresh = cookies.find((c) => c.name === "arbiter_refresh");
    assert.ok(refresh, "Chromium kept the Secure refresh cookie on the loopback address");
    assert.equal(refresh.httpOnly, true);
    assert.equal(refresh.secure, true);
    assert.equal(refresh.sameSite, "Strict");
    assert.equal(refresh.path, "/api/v1/auth/refresh");
    const visible = await page.evaluate(() => document.cookie + JSON.stringify({ ...window.localStorage }));
    assert.doesNotMatch(visible, /arb_rt_/, "page scripts can read the refresh token");
  }));
