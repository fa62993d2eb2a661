import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { Claim, ProjectDetail } from "../../../api/workflowTypes";
import type { Schema } from "../../../api";
import { apiError, authBody, json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { AnnotatePage } from "./AnnotatePage";
import { leftText } from "../work/progress";
import { untouched } from "../work/useClaimAhead";
import { workflowKeys } from "../../../api/workflow";
import { createQueryClient } from "../../../queryClient";

const schema: Schema = {
  version: 1,
  inputs: [{ name: "prompt", type: "text", label: "Prompt" }],
  questions: [{ key: "ok", kind: "binary", label: "Looks right", required: true }],
};
const project: ProjectDetail = { id: "p1", name: "Pilot", my_roles: ["annotator"], schema, workflow: {} } as ProjectDetail;

let fresh = false;
const claim = (n: number): Claim => ({
  assignment: { id: `a${n}`, stage: "label", lease_expires_at: "2030-01-01T00:00:00Z", version: fresh ? 0 : 1, schema_version: 1, draft_source: null },
  item: { role: "annotator", schema, item: { external_id: `item-${n}`, inputs: { prompt: `Prompt ${n}` } } },
  draft: null,
  context: {},
});

const later = <T,>(ms: number, fn: () => T) => new Promise<T>((r) => setTimeout(() => r(fn()), ms));

/**
 * The server's queue for one person: a plain next hands back the oldest open
 * assignment or claims a new item; with prefetch, the one after the current
 * one (claimed if needed); submit closes an assignment.
 */
function fakeQueue(items: number, delayMs = 0) {
  let claimed = 0;
  let submitted = 0;
  const open: number[] = [];
  const log: string[] = [];
  const claimNew = () => (claimed < items ? (open.push(++claimed), claimed) : null);
  return {
    log,
    open,
    routes: {
      // Like the server: available leaves out what this person holds.
      "GET /api/v1/projects/p1/me/progress": () => {
        log.push(`progress while ${document.querySelector(".item-id code")?.textContent ?? "nothing"} shown`);
        return json(200, progress(submitted, 40 + submitted, items - claimed));
      },
      "POST /api/v1/projects/p1/queue/next": (c: { body: unknown }) => {
        const prefetch = !!(c.body as { prefetch?: boolean }).prefetch;
        log.push(prefetch ? "ahead" : "next");
        const n = prefetch ? (open.length > 1 ? open[1] : claimNew()) : (open[0] ?? claimNew());
        const answer = () => (n ? json(200, claim(n)) : new Response(null, { status: 204 }));
        return delayMs ? later(delayMs, answer) : answer();
      },
      ...Object.fromEntries(
        Array.from({ length: items }, (_, i) => [
          `POST /api/v1/projects/p1/assignments/a${i + 1}/submit`,
          () => {
            log.push(`submit a${i + 1}`);
            open.splice(open.indexOf(i + 1), 1);
            submitted++;
            return json(200, { assignment: { id: `a${i + 1}`, stage: "label", status: "submitted" }, item_stage: "label", replayed: false });
          },
        ]),
      ),
    },
  };
}

const answerAndSubmit = () => {
  fireEvent.keyDown(document.activeElement ?? document, { key: "y", bubbles: true });
  fireEvent.keyDown(document.activeElement ?? document, { key: "Enter", ctrlKey: true, bubbles: true });
};

const progress = (today: number, total: number, available: number, capped = false) => ({
  stages: [{ stage: "label", done_today: today, done_total: total, available, available_capped: capped }],
});

describe("leftText", () => {
  it("adds the items held ahead and shows a capped count with a plus", () => {
    expect(leftText({ available: 1000, available_capped: true }, 1)).toBe("1000+");
    expect(leftText({ available: 7, available_capped: false })).toBe("7");
    expect(leftText({ available: 7, available_capped: false }, 1)).toBe("8");
  });
});

describe("AnnotatePage stages", () => {
  const withCriteria = { ...project, workflow: { criteria_stage: { form: "criteria", question: "criteria", input: "criterion" } } } as ProjectDetail;
  const stages = (label: number, criteria: number) => ({
    stages: [
      { stage: "label", done_today: 0, done_total: 0, available: label, available_capped: false },
      { stage: "criteria", done_today: 0, done_total: 0, available: criteria, available_capped: false },
    ],
  });

  it("starts in the stage that has work for the person", async () => {
    const { calls } = renderInProject(<AnnotatePage />, withCriteria, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, stages(0, 2)),
      "POST /api/v1/projects/p1/queue/next": () => new Response(null, { status: 204 }),
    });
    await screen.findByText("There are no items waiting for criteria.");
    expect(screen.getByRole("tab", { name: "Write criteria" }).getAttribute("aria-selected")).toBe("true");
    expect(calls.filter((c) => c.path.endsWith("/queue/next")).map((c) => (c.body as { stage: string }).stage)).toEqual(["criteria"]);
  });

  it("starts in the first stage when none has work, and in the one the address names", async () => {
    const first = renderInProject(<AnnotatePage />, withCriteria, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, stages(0, 0)),
      "POST /api/v1/projects/p1/queue/next": () => new Response(null, { status: 204 }),
    });
    await screen.findByText("There is nothing left for you to label right now.");
    first.unmount();
    renderInProject(<AnnotatePage />, withCriteria, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, stages(5, 0)),
      "POST /api/v1/projects/p1/queue/next": () => new Response(null, { status: 204 }),
    }, "/?stage=criteria");
    await screen.findByText("There are no items waiting for criteria.");
  });
});

describe("AnnotatePage progress", () => {
  it("shows the server's counts and refreshes them once the next item is on screen and the one after it claimed", async () => {
    const queue = fakeQueue(3, 20);
    renderInProject(<AnnotatePage />, project, queue.routes);

    await screen.findByText("item-1");
    // Item 2 is held ahead, so after item 1 two are left.
    await waitFor(() => expect(screen.getByTestId("progress-left").textContent).toBe("2 left"));
    expect(screen.getByTestId("progress-done").textContent).toBe("0 / 40");
    expect(queue.log).toEqual(["next", "ahead", "progress while item-1 shown"]);

    answerAndSubmit();
    await screen.findByText("item-2");
    await waitFor(() => expect(screen.getByTestId("progress-done").textContent).toBe("1 / 41"));
    expect(screen.getByTestId("progress-left").textContent).toBe("1 left");
    // The refresh went out after the next item was shown and the one after it claimed.
    expect(queue.log.slice(3)).toEqual(["submit a1", "ahead", "progress while item-2 shown"]);

    answerAndSubmit();
    await screen.findByText("item-3");
    await waitFor(() => expect(screen.getByTestId("progress-done").textContent).toBe("2 / 42"));
    expect(screen.getByTestId("progress-left").textContent).toBe("0 left");
    // No per-browser counter is kept any more.
    expect(Object.keys(localStorage).filter((k) => k.startsWith("arbiter.done."))).toEqual([]);
  });

  it("does not show counts read before the person held anything (the overview's) on first load", async () => {
    const queue = fakeQueue(3, 20);
    // The app's client keeps answers fresh for a while; the overview read 3 available before any claim.
    const qc = createQueryClient();
    qc.setQueryData(workflowKeys.myProgress("p1"), progress(0, 40, 3));
    renderInProject(<AnnotatePage />, project, queue.routes, "/", qc);

    await screen.findByText("item-1");
    await waitFor(() => expect(queue.log).toContain("progress while item-1 shown"));
    // 3 items: one on screen, one held ahead, one left to claim — never 3 + 1.
    await waitFor(() => expect(screen.getByTestId("progress-left").textContent).toBe("2 left"));
    expect(screen.queryByText("4 left")).toBeNull();
  });

  it("shows a capped count as 1000+", async () => {
    renderInProject(<AnnotatePage />, project, {
      ...fakeQueue(2).routes,
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress(3, 50, 1000, true)),
    });
    await waitFor(() => expect(screen.getByTestId("progress-left").textContent).toBe("1000+ left"));
    expect(screen.getByTestId("progress-done").textContent).toBe("3 / 50");
  });

  it("claims the next item ahead and shows it after a submit without asking the queue again", async () => {
    const queue = fakeQueue(3);
    const { calls } = renderInProject(<AnnotatePage />, project, {
      ...queue.routes,
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress(0, 0, 3)),
    });
    await screen.findByText("item-1");
    // Once item 1 is shown, item 2 is claimed ahead.
    await waitFor(() => expect(queue.log).toEqual(["next", "ahead"]));
    expect(calls.find((c) => c.path.endsWith("/queue/next") && (c.body as { prefetch?: boolean }).prefetch)?.body).toEqual({ stage: "label", prefetch: true });

    answerAndSubmit();
    await screen.findByText("item-2");
    await waitFor(() => expect(queue.log).toEqual(["next", "ahead", "submit a1", "ahead"]));

    answerAndSubmit();
    await screen.findByText("item-3");
    // Nothing after item 3: the queue is asked once more after its submit and says so.
    await waitFor(() => expect(queue.log.slice(4)).toEqual(["submit a2", "ahead"]));
    answerAndSubmit();
    await screen.findByTestId("queue-empty");
    expect(queue.log.slice(6)).toEqual(["submit a3", "next"]);
    expect(queue.open).toEqual([]);
  });

  it("says how many were done today when the queue is empty", async () => {
    renderInProject(<AnnotatePage />, project, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress(5, 12, 0)),
      "POST /api/v1/projects/p1/queue/next": () => new Response(null, { status: 204 }),
    });
    await screen.findByTestId("queue-empty");
    await screen.findByText("You finished 5 today in this stage.");
    expect(screen.getByTestId("progress-left").textContent).toBe("0 left");
  });
});

describe("AnnotatePage guidelines", () => {
  it("shows the project's guidelines above the item on a first visit; Shift+G hides them and the form keeps the keyboard", async () => {
    const queue = fakeQueue(2);
    renderInProject(<AnnotatePage />, { ...project, guidelines: "Answer **yes** only when the prompt is followed." } as ProjectDetail, queue.routes);
    await waitFor(() => expect(document.querySelector(".item-id code")?.textContent).toBe("item-1"));
    const panel = screen.getByRole("region", { name: "Guidelines" });
    const rule = screen.getByText("yes");
    expect(rule.tagName).toBe("STRONG");
    expect(rule.closest(".guidelines-body")?.hasAttribute("hidden")).toBe(false);
    const question = document.activeElement;
    expect(question?.closest(".aform")).not.toBeNull();
    expect(panel.contains(question)).toBe(false);

    fireEvent.keyDown(question!, { key: "G", code: "KeyG", shiftKey: true, bubbles: true });
    expect(rule.closest(".guidelines-body")?.hasAttribute("hidden")).toBe(true);
    expect(document.activeElement).toBe(question);
    answerAndSubmit();
    await waitFor(() => expect(queue.log).toContain("submit a1"));
  });

  it("shows no panel when the project has no guidelines", async () => {
    const queue = fakeQueue(1);
    renderInProject(<AnnotatePage />, { ...project, guidelines: "" } as ProjectDetail, queue.routes);
    await waitFor(() => expect(document.querySelector(".item-id code")?.textContent).toBe("item-1"));
    expect(screen.queryByRole("region", { name: "Guidelines" })).toBeNull();
  });
});

describe("AnnotatePage leaving", () => {
  // Fresh claims: no draft saved yet (version 0).
  beforeEach(() => {
    fresh = true;
  });
  afterEach(() => {
    fresh = false;
  });
  const releases = (fetch: unknown) =>
    (fetch as { mock: { calls: [RequestInfo | URL, RequestInit | undefined][] } }).mock.calls
      .filter(([url]) => String(url).endsWith("/release"))
      .map(([url, init]) => ({ url: String(url), method: init?.method, keepalive: init?.keepalive, auth: new Headers(init?.headers).get("Authorization") }));

  const signIn = (client: { login: (e: string, p: string) => Promise<unknown> }) => client.login("ann@example.com", "pw");
  const loginRoute = { "POST /api/v1/auth/login": () => json(200, authBody("acc-1")) };

  it("releases the item claimed ahead when the person leaves the page, with keepalive and the access token", async () => {
    const queue = fakeQueue(3);
    const { fetch, client, unmount } = renderInProject(<AnnotatePage />, project, {
      ...queue.routes,
      ...loginRoute,
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress(0, 0, 3)),
      "POST /api/v1/projects/p1/assignments/a2/release": () => new Response(null, { status: 204 }),
    });
    await signIn(client);
    await screen.findByText("item-1");
    await waitFor(() => expect(queue.log).toEqual(["next", "ahead"]));
    expect(releases(fetch)).toEqual([]);

    unmount();
    expect(releases(fetch)).toEqual([{ url: "/api/v1/projects/p1/assignments/a2/release", method: "POST", keepalive: true, auth: "Bearer acc-1" }]);
  });

  it("releases the one claimed after the item on screen, not the one shown after a submit", async () => {
    const queue = fakeQueue(3);
    const { fetch, unmount } = renderInProject(<AnnotatePage />, project, {
      ...queue.routes,
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress(0, 0, 3)),
    });
    await screen.findByText("item-1");
    await waitFor(() => expect(queue.log).toEqual(["next", "ahead"]));
    answerAndSubmit();
    await screen.findByText("item-2");
    await waitFor(() => expect(queue.log).toEqual(["next", "ahead", "submit a1", "ahead"]));
    expect(releases(fetch)).toEqual([]);
    unmount();
    expect(releases(fetch).map((r) => r.url)).toEqual(["/api/v1/projects/p1/assignments/a3/release"]);
  });

  it("releases on pagehide, ignores a refusal, and claims ahead again when the page comes back from the cache", async () => {
    const queue = fakeQueue(3);
    const { fetch, unmount } = renderInProject(<AnnotatePage />, project, {
      ...queue.routes,
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress(0, 0, 3)),
      "POST /api/v1/projects/p1/assignments/a2/release": () => apiError(409, "has_draft", "A draft was saved."),
    });
    await screen.findByText("item-1");
    await waitFor(() => expect(queue.log).toEqual(["next", "ahead"]));

    window.dispatchEvent(new Event("pagehide"));
    expect(releases(fetch).map((r) => r.url)).toEqual(["/api/v1/projects/p1/assignments/a2/release"]);
    // The refusal is not shown to anyone.
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByText("item-1")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();

    const back = new Event("pageshow") as PageTransitionEvent;
    Object.defineProperty(back, "persisted", { value: true });
    window.dispatchEvent(back);
    await waitFor(() => expect(queue.log).toEqual(["next", "ahead", "ahead"]));
    unmount();
    expect(releases(fetch).map((r) => r.url)).toEqual(["/api/v1/projects/p1/assignments/a2/release", "/api/v1/projects/p1/assignments/a2/release"]);
  });

  it("keeps an item claimed ahead that already has a saved draft", async () => {
    const queue = fakeQueue(3);
    const withDraft = (n: number): Claim => ({ ...claim(n), assignment: { ...claim(n).assignment, version: 3 }, draft: { ok: "yes" } });
    const { fetch, unmount } = renderInProject(<AnnotatePage />, project, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress(0, 0, 3)),
      "POST /api/v1/projects/p1/queue/next": (c: { body: unknown }) =>
        (c.body as { prefetch?: boolean }).prefetch ? (queue.log.push("ahead"), json(200, withDraft(2))) : (queue.log.push("next"), json(200, claim(1))),
    });
    await screen.findByText("item-1");
    await waitFor(() => expect(queue.log).toEqual(["next", "ahead"]));
    unmount();
    window.dispatchEvent(new Event("pagehide"));
    expect(releases(fetch)).toEqual([]);
  });

  it("releases an item claimed ahead once the claim answers, when the person left while it was out", async () => {
    const log: string[] = [];
    let answerAhead = () => {};
    const { fetch, unmount } = renderInProject(<AnnotatePage />, project, {
      "GET /api/v1/projects/p1/me/progress": () => json(200, progress(0, 0, 3)),
      "POST /api/v1/projects/p1/queue/next": (c: { body: unknown }) => {
        if (!(c.body as { prefetch?: boolean }).prefetch) return (log.push("next"), json(200, claim(1)));
        log.push("ahead");
        return new Promise<Response>((r) => (answerAhead = () => r(json(200, claim(2)))));
      },
    });
    await screen.findByText("item-1");
    await waitFor(() => expect(log).toEqual(["next", "ahead"]));
    unmount();
    expect(releases(fetch)).toEqual([]);
    answerAhead();
    await waitFor(() => expect(releases(fetch).map((r) => r.url)).toEqual(["/api/v1/projects/p1/assignments/a2/release"]));
  });
});

describe("untouched", () => {
  it("counts saved drafts by version, not a prefilled draft", () => {
    const c = claim(1);
    expect(untouched({ ...c, assignment: { ...c.assignment, version: 0 }, draft: { ok: "yes" } })).toBe(true);
    expect(untouched({ ...c, assignment: { ...c.assignment, version: 2 }, draft: null })).toBe(false);
  });
});

describe("AnnotatePage submits", () => {
  const submits = (fetch: unknown) =>
    (fetch as { mock: { calls: [RequestInfo | URL, RequestInit | undefined][] } }).mock.calls
      .filter(([url]) => String(url).endsWith("/a1/submit"))
      .map(([, init]) => ({ key: new Headers(init?.headers).get("Idempotency-Key"), body: JSON.parse(String(init?.body)) }));
  const routes = (submit: (() => Response)[]) => ({
    "GET /api/v1/projects/p1/me/progress": () => json(200, progress(0, 0, 3)),
    "POST /api/v1/projects/p1/queue/next": (c: { body: unknown }) => json(200, claim((c.body as { prefetch?: boolean }).prefetch ? 2 : 1)),
    "POST /api/v1/projects/p1/assignments/a1/submit": submit,
  });
  const ok = () => json(200, { assignment: { id: "a1", stage: "label", status: "submitted" }, item_stage: "done", replayed: false });
  const offline = () => {
    throw new TypeError("Failed to fetch");
  };

  it("keeps trying a submit the network lost, with the same idempotency key, and shows the next item once it goes through", async () => {
    const { fetch } = renderInProject(<AnnotatePage />, project, routes([offline, offline, ok]));
    await screen.findByText("item-1");
    answerAndSubmit();
    await screen.findByTestId("offline");
    // item-2 is in the page early (rendered ahead, hidden); it is shown once the submit went through.
    await waitFor(() => expect(screen.getByTestId("work").dataset.assignment).toBe("a2"), { timeout: 5000 });
    const sent = submits(fetch);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
    expect(sent[0].key).toBeTruthy();
    expect(sent.every((s) => s.body.answers.ok === "yes")).toBe(true);
    expect(screen.queryByTestId("offline")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows the item claimed ahead at once and finishes the submit behind it", async () => {
    let acknowledge = () => {};
    const { fetch } = renderInProject(<AnnotatePage />, project, routes([() => new Promise<Response>((r) => (acknowledge = () => r(ok())))] as never));
    await screen.findByText("item-1");
    await waitFor(() => expect(document.querySelector("[data-testid=work]")?.querySelectorAll("[data-question]").length).toBeGreaterThan(1));
    answerAndSubmit();
    // note: the server has not answered the submit yet
    await waitFor(() => expect(screen.getByTestId("work").dataset.assignment).toBe("a2"));
    expect(submits(fetch)).toHaveLength(1);
    expect(JSON.parse(localStorage.getItem("arbiter.draft.a1") ?? "{}").answers).toEqual({ ok: "yes" });
    acknowledge();
    await waitFor(() => expect(localStorage.getItem("arbiter.draft.a1")).toBeNull());
    expect(screen.getByTestId("work").dataset.assignment).toBe("a2");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("brings a refused submit's item back, with the refusal, from the item shown meanwhile", async () => {
    let refuse = () => {};
    renderInProject(<AnnotatePage />, project, routes([() => new Promise<Response>((r) => (refuse = () => r(apiError(409, "lease_lost", "The lease was lost."))))] as never));
    await screen.findByText("item-1");
    await waitFor(() => expect(document.querySelector("[data-testid=work]")?.querySelectorAll("[data-question]").length).toBeGreaterThan(1));
    answerAndSubmit();
    await waitFor(() => expect(screen.getByTestId("work").dataset.assignment).toBe("a2"));
    refuse();
    await screen.findByText(/Your hold on this item expired/);
    expect(screen.getByTestId("work").dataset.assignment).toBe("a1");
    expect(JSON.parse(localStorage.getItem("arbiter.draft.a1") ?? "{}").answers).toEqual({ ok: "yes" });
  });

  it("does not retry a conflict: says so once and keeps the answers in this browser", async () => {
    const { fetch } = renderInProject(<AnnotatePage />, project, routes([() => apiError(409, "lease_lost", "The lease was lost.")]));
    await screen.findByText("item-1");
    answerAndSubmit();
    await screen.findByText(/Your hold on this item expired/);
    await new Promise((r) => setTimeout(r, 800));
    expect(submits(fetch)).toHaveLength(1);
    expect(screen.getByText("item-1")).toBeTruthy();
    expect(JSON.parse(localStorage.getItem("arbiter.draft.a1") ?? "{}").answers).toEqual({ ok: "yes" });
  });

  it("does not retry answers the server refused: shows the problem on the question", async () => {
    const { fetch } = renderInProject(
      <AnnotatePage />,
      project,
      routes([() => apiError(422, "validation_failed", "invalid answers", { ok: { code: "not_allowed", message: "Not a value this question takes." } })]),
    );
    await screen.findByText("item-1");
    answerAndSubmit();
    await screen.findByText("Not a value this question takes.");
    await new Promise((r) => setTimeout(r, 800));
    expect(submits(fetch)).toHaveLength(1);
  });
});
