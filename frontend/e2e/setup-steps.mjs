// Steps of the project-setup browser tests: accounts made on the admin page,
// invitations joined on the projects page, keyboard work in each stage, and a
// small zip writer for media archives.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { repoRoot } from "./harness.mjs";
import { PASSWORD, answerAll, morePasses } from "./workflow-steps.mjs";

/** Signs in through the login form with any password; returns { context, page, errors }. */
export async function signInWith(browser, baseURL, email, password, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport, baseURL });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/projects$/);
  return { context, page, errors };
}

/** An administrator creates accounts on the Users page: [{ name, email, lead }]. */
export async function createAccounts(page, people) {
  await page.goto("/admin/users");
  for (const p of people) {
    await page.getByRole("button", { name: "New user" }).click();
    const form = page.getByRole("form", { name: "New user" });
    await form.getByLabel("Name").fill(p.name);
    await form.getByLabel("Email").fill(p.email);
    await form.getByLabel("Initial password").fill(PASSWORD);
    if (p.lead) await form.getByLabel(/Can create projects/).check();
    await form.getByRole("button", { name: "Create user" }).click();
    await page.getByRole("cell", { name: p.email, exact: true }).waitFor();
  }
}

/** Adds people by email on the wizard's (or Members tab's) form; each is invited, and the roles start over. */
export async function inviteByEmail(page, people) {
  const form = page.getByRole("form", { name: "Set member roles" });
  for (const { email, roles } of people) {
    await form.getByLabel("Email or user id").fill(email);
    for (const r of ["annotator", "reviewer", "adjudicator"]) await form.getByLabel(r, { exact: true }).setChecked(roles.includes(r));
    await form.getByRole("button", { name: "Save roles" }).click();
    await form.getByRole("status").getByText(`Invited ${email} as ${roles.join(", ")}.`).waitFor();
    assert.equal(await form.getByLabel("annotator", { exact: true }).isChecked(), true, "the roles start over at annotator");
    for (const r of ["reviewer", "adjudicator"]) assert.equal(await form.getByLabel(r, { exact: true }).isChecked(), false, `${r} is unchecked again`);
  }
}

/** A member signs in and joins the project from the invitations on the projects page. */
export async function joinProject(browser, baseURL, email, projectName) {
  const s = await signInWith(browser, baseURL, email, PASSWORD);
  const inv = s.page.getByRole("region", { name: "Invitations" });
  await inv.getByText(projectName).waitFor();
  await inv.getByRole("button", { name: "Join" }).click();
  await s.page.getByRole("link", { name: projectName }).waitFor();
  return s;
}

/** The tab names a member sees on the project page. */
export async function tabNames(page) {
  const nav = page.getByRole("navigation", { name: "Project sections" });
  await nav.waitFor();
  return (await nav.getByRole("link").allTextContents()).map((t) => t.trim());
}

/** Labels the member's whole queue by keyboard; returns how many were submitted. */
export async function labelAll(page, pid, schema, variantFor) {
  await page.goto(`/projects/${pid}/annotate`);
  await page.waitForFunction(() => document.querySelector("[data-testid=queue-empty]") || document.activeElement?.matches(".q-card"));
  let n = 0;
  while (!(await page.getByTestId("queue-empty").isVisible())) {
    const prompt = await page.locator(".inputs-pane:visible").textContent();
    await answerAll(page, schema, (q, i) => (variantFor ? variantFor(prompt, q, i) : 0));
    const prev = await page.getByTestId("work").getAttribute("data-shown");
    const more = await morePasses(page);
    await page.keyboard.press("Control+Enter");
    await page.waitForFunction(
      (p) => document.querySelector("[data-testid=queue-empty]") || (document.querySelector("[data-testid=work]")?.dataset.shown !== p && document.activeElement?.matches(".q-card")),
      prev,
    );
    if (!more) n++;
  }
  return n;
}

/** Approves every label in the review queue with "a"; returns how many. */
export async function approveAll(page, pid, onFirst) {
  await page.goto(`/projects/${pid}/review`);
  await page.waitForFunction(() => document.querySelector("[data-testid=queue-empty]") || document.querySelector("[data-testid=work]")?.dataset.assignment);
  let n = 0;
  while (!(await page.getByTestId("queue-empty").isVisible())) {
    await page.getByRole("table", { name: "The label under review" }).waitFor();
    if (n === 0 && onFirst) await onFirst();
    const prev = await page.getByTestId("work").getAttribute("data-assignment");
    await page.keyboard.press("a");
    await page.waitForFunction(
      (p) => document.querySelector("[data-testid=queue-empty]") || (document.querySelector("[data-testid=work]")?.dataset.assignment || p) !== p,
      prev,
    );
    n++;
  }
  return n;
}

/** Settles each item in the adjudication queue by keyboard: the first label's answer where they differ, and a rationale. */
export async function adjudicateAll(page, pid, rationale, onFirst) {
  await page.goto(`/projects/${pid}/adjudicate`);
  await page.waitForFunction(() => document.querySelector("[data-testid=queue-empty]") || document.querySelector("[data-testid=work]")?.dataset.assignment);
  let n = 0;
  while (!(await page.getByTestId("queue-empty").isVisible())) {
    await page.getByRole("table", { name: "Labels per question" }).waitFor();
    const open = await page.locator(".labels-table tr.dis-open").count();
    for (let i = 0; i < open; i++) await page.keyboard.press("1");
    await page.keyboard.press("r");
    await page.waitForFunction(() => document.activeElement?.id === "adj-rationale");
    await page.keyboard.type(rationale);
    await page.keyboard.press("Escape");
    if (n === 0 && onFirst) await onFirst();
    const prev = await page.getByTestId("work").getAttribute("data-assignment");
    await page.keyboard.press("Control+Enter");
    await page.waitForFunction(
      (p) => document.querySelector("[data-testid=queue-empty]") || (document.querySelector("[data-testid=work]")?.dataset.assignment || p) !== p,
      prev,
    );
    n++;
  }
  return n;
}

/** The sample media shipped with the templates, by name. */
export const templateMedia = (name) => readFile(join(repoRoot, "tasks/templates/media", name));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive (stored, no compression) of [{ name, data }]. */
export function zip(files) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name);
    const crc = crc32(f.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(f.data.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(f.data.length, 20);
    dir.writeUInt32LE(f.data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, name, f.data);
    central.push(dir, name);
    offset += local.length + name.length + f.data.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...central, end]);
}

/** Runs fn; on failure saves a screenshot of every open page into dir first. */
export async function shootOnFailure(browser, dir, fn) {
  try {
    await fn();
  } catch (err) {
    let i = 0;
    for (const c of browser.contexts()) for (const p of c.pages()) await p.screenshot({ path: join(dir, `failure-${++i}.png`), fullPage: true }).catch(() => {});
    throw err;
  }
}
