// Browser-test harness: runs the real arbiter binary on a free loopback port
// with a fresh data directory, drives Debian's Chromium through playwright-core,
// and always cleans both up.
//
//   import { withArbiter } from "./harness.mjs";
//   test("…", (t) => withArbiter(t, async ({ page, api, shot }) => { … }));
//
// Environment: ARBITER_BIN (default <repo>/bin/arbiter), CHROMIUM_PATH
// (default /usr/bin/chromium), E2E_HEADFUL=1 to watch the browser.

import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const artifactsDir = join(repoRoot, "test-artifacts");
export const arbiterBin = process.env.ARBITER_BIN || join(repoRoot, "bin/arbiter");
export const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export const ADMIN_EMAIL = "admin@arbiter.test";
export const ADMIN_PASSWORD = "e2e-Admin-password-1";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

// Children still running when the process exits are killed, whatever happened.
const liveChildren = new Set();
process.on("exit", () => {
  for (const child of liveChildren) child.kill("SIGKILL");
});

/** Asks the kernel for a free loopback TCP port. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `arbiter serve` and waits for /healthz. Returns
 * { url, dataDir, admin, api, logs(), stop() }.
 */
export async function startArbiter({ env = {}, timeoutMs = 30_000 } = {}) {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), "arbiter-e2e-"));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(arbiterBin, ["serve", "--addr", `127.0.0.1:${port}`, "--data-dir", dataDir], {
    env: {
      ...process.env,
      ARBITER_ADMIN_EMAIL: ADMIN_EMAIL,
      ARBITER_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  liveChildren.add(child);
  let output = "";
  const keep = (chunk) => {
    output += chunk;
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.setEncoding("utf8").on("data", keep);
  child.stderr.setEncoding("utf8").on("data", keep);
  let exited = null;
  const exitedPromise = new Promise((r) =>
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      liveChildren.delete(child);
      r();
    }),
  );
  child.once("error", (err) => {
    exited = { code: null, signal: null, error: err };
  });

  async function stop() {
    if (!exited) {
      child.kill("SIGTERM");
      let timer;
      const timedOut = await Promise.race([
        exitedPromise.then(() => false),
        new Promise((r) => (timer = setTimeout(() => r(true), 10_000))),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        child.kill("SIGKILL");
        await exitedPromise;
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  }

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      await stop();
      const why = exited.error ? exited.error.message : `exit code ${exited.code}`;
      throw new Error(`arbiter (${arbiterBin}) stopped before answering /healthz (${why}):\n${output}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`arbiter did not answer ${url}/healthz within ${timeoutMs} ms:\n${output}`);
    }
    await sleep(100);
  }

  return {
    url,
    dataDir,
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    api: apiHelpers(url),
    logs: () => output,
    stop,
  };
}

/** Thin fetch helpers over /api/v1 for arranging test data. */
export function apiHelpers(url) {
  async function request(method, path, { body, token } = {}) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const data = text ? JSON.parse(text) : undefined;
    if (!res.ok) {
      const err = new Error(`${method} ${path} → ${res.status}: ${text}`);
      err.status = res.status;
      err.body = data;
      throw err;
    }
    return data;
  }
  return {
    request,
    /** Returns the login response: {access_token, user, …} (the refresh token is a cookie). */
    login: (email, password) => request("POST", "/api/v1/auth/login", { body: { email, password } }),
    loginAdmin: () => request("POST", "/api/v1/auth/login", { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }),
    createUser: (token, { email, name, password, is_admin = false, can_create_projects = false }) =>
      request("POST", "/api/v1/users", { token, body: { email, name, password, is_admin, can_create_projects } }),
    createProject: (token, { name, description = "" }) =>
      request("POST", "/api/v1/projects", { token, body: { name, description } }),
    setMemberRoles: (token, pid, uid, roles) =>
      request("PUT", `/api/v1/projects/${encodeURIComponent(pid)}/members/${encodeURIComponent(uid)}`, {
        token,
        body: { roles },
      }),
    listProjects: (token) => request("GET", "/api/v1/projects", { token }),
  };
}

/** Launches Chromium headless (or headful with E2E_HEADFUL=1). */
export function launchBrowser() {
  const headful = process.env.E2E_HEADFUL === "1";
  return chromium.launch({
    executablePath: chromiumPath,
    headless: !headful,
    args: headful ? CHROMIUM_ARGS.filter((a) => a !== "--headless") : CHROMIUM_ARGS,
  });
}

/** Saves a full-page PNG to test-artifacts/<name>.png and returns its path. */
export async function screenshot(page, name) {
  await mkdir(artifactsDir, { recursive: true });
  const file = join(artifactsDir, `${name.replace(/[^\w.-]+/g, "-")}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Runs fn with a fresh server, browser and page, then always stops them. On
 * failure it saves `<prefix>-failure.png` and prints the server's log.
 * fn receives { server, api, browser, context, page, shot(name), consoleErrors };
 * shot numbers screenshots so they sort in the order they were taken.
 * Options: prefix (screenshot names), viewport, serverEnv (extra ARBITER_* env).
 */
export async function withArbiter(
  t,
  fn,
  { prefix = slug(t?.name ?? "e2e"), viewport = { width: 1280, height: 800 }, serverEnv = {} } = {},
) {
  const server = await startArbiter({ env: serverEnv });
  let browser;
  let page;
  let step = 0;
  try {
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport, baseURL: server.url });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    const consoleErrors = [];
    page.on("console", (msg) => msg.type() === "error" && consoleErrors.push(msg.text()));
    page.on("pageerror", (err) => consoleErrors.push(String(err)));
    const shot = (name) => screenshot(page, `${prefix}-${String(++step).padStart(2, "0")}-${name}`);
    await fn({ server, api: server.api, browser, context, page, shot, consoleErrors });
  } catch (err) {
    if (page) await screenshot(page, `${prefix}-failure`).catch(() => {});
    console.error(`--- arbiter log (${server.url}) ---\n${server.logs().slice(-8000)}`);
    throw err;
  } finally {
    if (browser) await browser.close().catch(() => {});
    await server.stop();
  }
}

function slug(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "e2e";
}

/** Saves what the viewport shows, once its images are decoded, as <dir>/<name>-<width>.png. */
export async function viewShot(page, dir, name, { width }) {
  await page.evaluate(() => Promise.all([...document.images].map((img) => img.decode().catch(() => {}))));
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(dir, `${name}-${width}.png`) });
}

/**
 * Elements matching `selector` whose text is cut off: wider than the box that
 * shows them (ellipsis, hidden overflow), or outside the visible part of their
 * scrolling container and the viewport horizontally.
 */
export function clipped(page, selector) {
  return page.evaluate((sel) => {
    const out = [];
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${sel} "${el.textContent.slice(0, 40)}" is wider than its box`);
      let box = { left: 0, right: document.documentElement.clientWidth };
      for (let p = el.parentElement; p; p = p.parentElement) {
        if (/(auto|scroll|hidden)/.test(getComputedStyle(p).overflowX)) {
          const pr = p.getBoundingClientRect();
          box = { left: Math.max(box.left, pr.left), right: Math.min(box.right, pr.right) };
        }
      }
      if (r.left < box.left - 1 || r.right > box.right + 1) out.push(`${sel} "${el.textContent.slice(0, 40)}" lies outside what is shown (${Math.round(r.left)}–${Math.round(r.right)} of ${Math.round(box.left)}–${Math.round(box.right)})`);
    }
    return out;
  }, selector);
}
