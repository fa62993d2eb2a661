import { describe, expect, it } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { App } from "../../App";
import { ApiClient, SESSION_KEY } from "../../api";
import { apiError, authBody, fakeFetch, json } from "../../test/fakeApi";

const detail = {
  id: "mini",
  name: "Mini preference",
  description: "Pick the better response.",
  guidelines: "Read **both** responses.",
  source: "Test",
  schema: {
    version: 1,
    inputs: [
      { name: "prompt", type: "text", label: "Prompt" },
      { name: "responses", type: "candidates", count: 2 },
    ],
    questions: [{ key: "overall", kind: "pairwise", label: "Overall", required: true, allow_tie: true }],
  },
  forms: [
    {
      key: "criteria",
      name: "Criteria authoring",
      schema: { version: 1, inputs: [{ name: "prompt", type: "text" }], questions: [{ key: "criteria", kind: "criteria", label: "Criteria", required: true }] },
    },
  ],
  samples: [
    {
      external_id: "s1",
      inputs: {
        prompt: "Say hi",
        responses: [
          { id: "r1", type: "text", value: "Hello!" },
          { id: "r2", type: "markdown", value: "**Hi** there" },
        ],
      },
    },
  ],
};

function renderAt(path: string, validate: Parameters<typeof fakeFetch>[0][string]) {
  window.localStorage.setItem(SESSION_KEY, "1");
  window.history.pushState({}, "", path);
  const f = fakeFetch({
    "POST /api/v1/auth/refresh": () => json(200, authBody("A1")),
    "GET /api/v1/templates": () => json(200, [{ id: "mini", name: "Mini preference", description: "Pick the better response.", question_count: 1 }]),
    "GET /api/v1/templates/mini": () => json(200, detail),
    "POST /api/v1/templates/mini/validate": validate,
  });
  render(<App client={new ApiClient({ fetch: f.fetch, storage: window.localStorage, locks: null })} />);
  return f.calls;
}

describe("TemplatesPage", () => {
  it("lists templates as cards", async () => {
    renderAt("/templates", () => json(200, { valid: true }));
    const list = await screen.findByRole("list", { name: "Templates" });
    const card = within(list).getByRole("link");
    expect(card.getAttribute("href")).toBe("/templates/mini");
    expect(card.textContent).toContain("1 question");
  });

  it("renders a sample, checks answers with the server, and shows valid: true", async () => {
    const calls = renderAt("/templates/mini", () => json(200, { valid: true }));
    await screen.findByRole("heading", { name: "Mini preference", level: 1 });
    expect(screen.getByText("Response A")).toBeTruthy();
    expect(screen.getByText("Hi").tagName).toBe("STRONG");
    fireEvent.keyDown(document.body, { key: "b" });
    fireEvent.keyDown(document.body, { key: "Enter", ctrlKey: true });
    expect((await screen.findByTestId("verdict")).textContent).toContain("valid: true");
    expect(calls.find((c) => c.method === "POST" && c.path.endsWith("/validate"))?.body).toEqual({ answers: { overall: "B" } });
  });

  it("shows the server's per-question problems", async () => {
    renderAt("/templates/mini", () =>
      apiError(422, "validation_failed", "some answers are invalid", { overall: { code: "tie_not_allowed", message: "No ties here." } }),
    );
    await screen.findByRole("heading", { name: "Mini preference", level: 1 });
    fireEvent.keyDown(document.body, { key: "t" });
    fireEvent.keyDown(document.body, { key: "Enter", ctrlKey: true });
    expect((await screen.findByTestId("verdict")).textContent).toContain("valid: false");
    expect(screen.getByText("No ties here.")).toBeTruthy();
  });

  it("offers extra forms as tabs and sends the form key", async () => {
    const calls = renderAt("/templates/mini?form=criteria", () => json(200, { valid: true }));
    const tab = await screen.findByRole("tab", { name: "Criteria authoring" });
    expect(tab.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(document.body, { key: "Enter" });
    const field = screen.getByRole("textbox", { name: /new criterion/ });
    fireEvent.change(field, { target: { value: "Greets warmly" } });
    fireEvent.keyDown(field, { key: "Enter" });
    fireEvent.keyDown(field, { key: "Enter", ctrlKey: true });
    await screen.findByTestId("verdict");
    expect(calls.find((c) => c.path.endsWith("/validate"))?.body).toEqual({ answers: { criteria: ["Greets warmly"] }, form: "criteria" });
  });
});
