// The template gallery: every built-in template's first sample is answered
// with the keyboard alone and accepted by the server's validate endpoint.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { artifactsDir, withArbiter } from "./harness.mjs";

const shotsDir = join(artifactsDir, "templates");

/** The keys that answer question q (the form has it focused). */
function keysFor(q, schema, n) {
  switch (q.kind) {
    case "binary":
      return [["y", "n", "y"][n % 3]];
    case "likert": {
      const max = q.max ?? 5;
      return [max === 10 && (q.min ?? 1) >= 1 ? "0" : String(Math.min(max, 9))];
    }
    case "choice":
      return [String(Math.min(q.options.length, 1 + (n % 3)))];
    case "multi_choice":
      return Array.from({ length: Math.max(q.min ?? 1, 1) }, (_, i) => String(i + 1));
    case "pairwise":
      return [q.allow_tie ? ["a", "b", "t"][n % 3] : ["a", "b"][n % 2]];
    case "ranking": {
      const input = schema.inputs.find((i) => i.type === "candidates" && (!q.candidates || i.name === q.candidates));
      const count = input?.count || 2;
      return Array.from({ length: count - 1 }, (_, i) => String.fromCharCode(97 + count - 1 - i));
    }
    case "checklist":
      return q.items.map((it, i) => String(i % 2 ? it.max : Math.max(0, it.max - 1)));
    case "text": {
      const want = Math.max(q.min_length ?? 0, 24);
      const text = `Looks consistent with the prompt; checked ${q.key}.`.padEnd(want, " ok");
      return ["Enter", { type: q.max_length ? text.slice(0, q.max_length) : text }, "Escape"];
    }
    case "criteria": {
      const count = Math.max(q.min ?? 1, 1);
      const keys = ["Enter"];
      for (let i = 0; i < count; i++) {
        const c = `Criterion ${i + 1}: the response follows the user's stated constraint number ${i + 1}.`;
        keys.push({ type: c.padEnd(q.min_length ?? 0, ".").slice(0, q.max_length || 500) }, "Enter");
      }
      keys.push("Escape");
      return keys;
    }
  }
  throw new Error(`no keys for kind ${q.kind}`);
}

/**
 * The keys that decide every drafted entry of the active list_edit question:
 * the first reworded (3, new text, Esc), then keep (1) up to the maximum and
 * drop (2) the rest; with nothing drafted, one entry is added (Enter, text, Enter).
 */
async function listEditKeys(page, q) {
  const n = await page.locator(".q-card[data-active] .list-edit li:not([data-op=add])").count();
  if (n === 0) return ["Enter", { type: `Does the response meet ${q.key}?` }, "Enter", "Escape"];
  const keys = ["3", { wait: "input[data-reword]" }, "Control+A", { type: `Reworded: does the response meet ${q.key}?` }, "Escape"];
  for (let i = 1; i < n; i++) keys.push(i < (q.max ?? n) ? "1" : "2");
  return keys;
}

/** Index of the question the form has active. */
const activeIndex = (page) =>
  page.evaluate(() => [...document.querySelectorAll(".q-card")].findIndex((el) => el.hasAttribute("data-active")));

/** Moves the active question to i with j/k only. */
async function moveTo(page, i) {
  for (let guard = 0; guard < 200; guard++) {
    const at = await activeIndex(page);
    if (at === i) return;
    await page.keyboard.press(at < i ? "j" : "k");
  }
  throw new Error(`could not reach question ${i}`);
}

/** Answers every question of the form on the page with the keyboard and submits. */
async function answerWithKeyboard(page, schema) {
  await page.locator(".q-card").first().waitFor();
  assert.equal(await page.locator(".q-card").count(), schema.questions.length, "one card per question");
  for (const [i, q] of schema.questions.entries()) {
    await moveTo(page, i);
    const keys = q.kind === "list_edit" ? await listEditKeys(page, q) : keysFor(q, schema, i);
    for (const k of keys) {
      if (typeof k === "string") await page.keyboard.press(k);
      else if (k.wait) await page.waitForFunction((sel) => document.activeElement?.matches(sel), k.wait);
      else await page.keyboard.type(k.type);
    }
  }
  await page.keyboard.press("Control+Enter");
  const verdict = page.getByTestId("verdict");
  try {
    await verdict.waitFor({ timeout: 5000 });
  } catch (err) {
    const problems = await page.locator(".q-error").allTextContents();
    throw new Error(`no verdict after submit; problems shown: ${JSON.stringify(problems)}`, { cause: err });
  }
  const text = await verdict.textContent();
  if (!/valid: true/.test(text)) {
    const problems = await page.locator(".q-card.invalid").evaluateAll((els) =>
      els.map((e) => `${e.dataset.question}: ${e.querySelector(".q-error")?.textContent}`),
    );
    assert.fail(`server said ${text}: ${problems.join("; ")}`);
  }
}

/** Lets images, players and the 3D viewer settle before a screenshot. */
async function settle(page) {
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.evaluate(() => Promise.all([...document.images].map((img) => img.decode().catch(() => {}))));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
}

/**
 * Saves the whole page. The viewport is grown to the page's height first, so
 * the sticky toolbar and footer sit where they belong instead of mid-page.
 */
async function saveShot(page, file) {
  const size = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
  await page.waitForTimeout(200);
  await page.screenshot({ path: file, timeout: 60_000 });
  await page.setViewportSize(size);
}

test("gallery: every template's first sample answered with the keyboard is valid", (t) =>
  withArbiter(
    t,
    async ({ server, api, page, consoleErrors }) => {
      await mkdir(shotsDir, { recursive: true });
      const { access_token: token } = await api.loginAdmin();
      const list = await api.request("GET", "/api/v1/templates", { token });
      assert.ok(list.length >= 14, `expected the built-in templates, got ${list.length}`);

      await page.goto("/login");
      await page.getByLabel("Email").fill(server.admin.email);
      await page.getByLabel("Password").fill(server.admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/projects$/);

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Templates" }).click();
      await page.getByRole("heading", { name: "Templates", level: 1 }).waitFor();
      const cards = page.getByRole("list", { name: "Templates" }).getByRole("link");
      await cards.first().waitFor();
      assert.equal(await cards.count(), list.length, "one card per template");
      await settle(page);
      await page.screenshot({ path: join(shotsDir, "_gallery.png"), fullPage: true });

      for (const summary of list) {
        const tpl = await api.request("GET", `/api/v1/templates/${summary.id}`, { token });
        await t.test(summary.id, async () => {
          await page.goto(`/templates/${summary.id}`);
          await page.getByRole("heading", { name: tpl.name, level: 1 }).waitFor();
          await answerWithKeyboard(page, tpl.schema);
          await settle(page);
          await saveShot(page, join(shotsDir, `${summary.id}.png`));
        });
        for (const form of tpl.forms ?? []) {
          await t.test(`${summary.id} form ${form.key}`, async () => {
            await page.goto(`/templates/${summary.id}?form=${encodeURIComponent(form.key)}`);
            await page.getByRole("tab", { name: form.name, selected: true }).waitFor();
            await answerWithKeyboard(page, form.schema);
            await settle(page);
            await saveShot(page, join(shotsDir, `${summary.id}--${form.key}.png`));
          });
        }
      }
      const unexpected = consoleErrors.filter((e) => !/status of 401/.test(e));
      assert.deepEqual(unexpected, [], "no console errors");
    },
    { prefix: "gallery", viewport: { width: 1440, height: 900 } },
  ));
