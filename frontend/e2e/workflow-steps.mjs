// Steps of the workflow browser test: sign-in, keyboard answers per question
// kind, and the submit-to-next-item latency probe.
import assert from "node:assert/strict";

export const PASSWORD = "e2e-Worker-password-1";

/** Signs in through the login form in a fresh context and returns its page. */
export async function signIn(browser, baseURL, email, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport, baseURL });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors = [];
  // Console warnings as well as errors, with the page they were logged on.
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()} on ${new URL(page.url()).pathname}: ${m.text()}`);
  });
  page.on("pageerror", (e) => {
    errors.push(String(e));
    problems.push(`uncaught on ${new URL(page.url()).pathname}: ${e}`);
    if (process.env.E2E_TRACE) console.log(`page error (${email}):`, e.stack || String(e));
  });
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/projects$/);
  return { context, page, errors, problems };
}

/** The keys that answer question q once the form has it focused; `variant` changes the answer. */
export function keysFor(q, variant = 0) {
  switch (q.kind) {
    case "binary":
      return [variant ? "n" : "y"];
    case "likert":
      return [String(Math.min(q.max ?? 5, 4 - (variant % 3)))];
    case "checklist":
      return q.items.map((it, i) => String((i + variant) % 2 ? it.max : Math.max(0, it.max - 1)));
    case "text": {
      const text = `Observed ${q.short_label || q.key}: consistent motion, contacts hold, no flicker.`;
      return ["Enter", { type: text.slice(0, q.max_length || 500) }, "Escape"];
    }
    case "choice":
      return ["1"];
    case "pairwise":
      return [variant ? "b" : "a"];
  }
  throw new Error(`no keys for kind ${q.kind}`);
}

/** Index of the question the form has active. */
export const activeIndex = (page) =>
  page.evaluate(() => [...document.querySelectorAll(".q-card")].findIndex((el) => el.hasAttribute("data-active")));

/** The questions on screen: the schema's, or on a form with passes those of the pass shown. */
export async function shownQuestions(page, schema) {
  const pass = Number(await page.getByTestId("work").getAttribute("data-pass")) || 0;
  if (!pass || !schema.passes?.length) return schema.questions;
  const keys = schema.passes[pass - 1].questions;
  return schema.questions.filter((q) => keys.includes(q.key));
}

/** Whether the form on screen has a pass after this one (a submit opens it rather than the next item). */
export async function morePasses(page) {
  const work = page.getByTestId("work");
  const [pass, passes] = await Promise.all([work.getAttribute("data-pass"), work.getAttribute("data-passes")]);
  return Number(pass || 0) < Number(passes || 0);
}

/** Labels the person's queue on the page it is on with the keyboard; returns how many items were submitted. `shotFile` saves the first item's page. */
export async function labelWithKeyboard(page, schema, variantFor = () => 0, shotFile) {
  await page.getByTestId("work").waitFor();
  let n = 0;
  for (;;) {
    await page.waitForFunction(() => document.querySelector("[data-testid=queue-empty]") || document.activeElement?.matches(".q-card"));
    if (await page.getByTestId("queue-empty").isVisible()) return n;
    const prev = await page.getByTestId("work").getAttribute("data-shown");
    const more = await morePasses(page);
    await answerAll(page, schema, variantFor);
    if (shotFile && n === 0) await saveShot(page, shotFile);
    await page.keyboard.press("Control+Enter");
    await page.waitForFunction(
      (p) => document.querySelector("[data-testid=queue-empty]") || document.querySelector("[data-testid=work]")?.dataset.shown !== p,
      prev,
    );
    if (!more) n++;
  }
}

/** Imports NDJSON lines by API (`path`: a project's items or predictions), asserting every line was taken; returns the report. */
export async function importNdjson(server, token, path, lines) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  const body = JSON.parse(text);
  assert.deepEqual(body.errors ?? [], [], text);
  return body;
}

/** Answers every question on screen with the keyboard, moving with j/k only when auto-advance did not. */
export async function answerAll(page, schema, variantFor = () => 0) {
  for (const [i, q] of (await shownQuestions(page, schema)).entries()) {
    for (let guard = 0; guard < 50; guard++) {
      const at = await activeIndex(page);
      if (at === i) break;
      await page.keyboard.press(at < i ? "j" : "k");
    }
    for (const k of keysFor(q, variantFor(q, i))) {
      if (typeof k === "string") await page.keyboard.press(k);
      else await page.keyboard.type(k.type);
    }
  }
}

/**
 * Arms the in-page probe: the time from the Ctrl+Enter keydown to the next
 * item being ready to answer — a different assignment on screen, its first
 * question focused and its media element present — checked every frame.
 */
export async function armLatencyProbe(page) {
  const prev = await page.getByTestId("work").getAttribute("data-shown");
  await page.evaluate(() => {
    window.__submitAt = 0;
    const onKey = (e) => {
      if (e.key !== "Enter" || !e.ctrlKey) return;
      window.__submitAt = performance.now();
      window.removeEventListener("keydown", onKey, true);
    };
    window.addEventListener("keydown", onKey, true);
  });
  return prev;
}

/** Waits for the next item or the next pass of the same one (returns ms since submit) or the empty queue (returns null). */
export async function waitNextReady(page, prev) {
  const handle = await page.waitForFunction(
    (prev) => {
      if (document.querySelector("[data-testid=queue-empty]")) return { empty: true };
      const w = document.querySelector("[data-testid=work]");
      if (!window.__submitAt || !w || !w.dataset.assignment || w.dataset.shown === prev) return false;
      const first = document.querySelector(".q-card");
      if (!first || document.activeElement !== first) return false;
      if (!document.querySelector(".inputs-pane img, .inputs-pane video, .inputs-pane audio")) return false;
      return { ms: performance.now() - window.__submitAt };
    },
    prev,
    { polling: "raf", timeout: 15_000 },
  );
  const v = await handle.jsonValue();
  return v.empty ? null : v.ms;
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}

/**
 * Lets media settle and saves the whole page; the viewport grows to the page's
 * height first so sticky parts sit where they belong.
 */
export async function saveShot(page, file) {
  await page.evaluate(() => Promise.all([...document.images].map((img) => img.decode().catch(() => {}))));
  const size = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(250);
  await page.screenshot({ path: file, timeout: 60_000 });
  await page.setViewportSize(size);
}

/** Asserts no page logged a console warning or error (expected 401s before a token refresh aside). */
export function assertNoConsoleProblems(problems, who) {
  const unexpected = problems.filter((e) => !/status of 401/.test(e));
  assert.deepEqual(unexpected, [], `no console warnings or errors for ${who}`);
}

/** Asserts the page showed no console errors other than expected 401 refreshes. */
export function assertNoConsoleErrors(errors, who) {
  const unexpected = errors.filter((e) => !/status of 401/.test(e));
  assert.deepEqual(unexpected, [], `no console errors for ${who}`);
}
