import { describe, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "./App";
import { ApiClient, SESSION_KEY } from "./api";
import { apiError, authBody, fakeFetch, json } from "./test/fakeApi";

const projects = [
  { id: "p7", name: "D3-Omni", description: "53 Yes/No dimensions", created_at: "2026-01-02T10:00:00Z", my_roles: ["lead"] },
];

function renderApp(routes: Parameters<typeof fakeFetch>[0], path = "/projects") {
  window.history.pushState({}, "", path);
  const f = fakeFetch(routes);
  render(<App client={new ApiClient({ fetch: f.fetch, storage: window.localStorage, locks: null })} />);
  return f.calls;
}

describe("App", () => {
  it("sends a signed-out visitor to the login page and back after signing in", async () => {
    const calls = renderApp({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "GET /api/v1/projects": () => json(200, projects),
    });
    await screen.findByRole("form", { name: "Sign in" });
    expect(window.location.pathname).toBe("/login");

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "admin@example.com" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "pw" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));

    const list = await screen.findByRole("list", { name: "Projects" });
    expect(within(list).getByRole("link", { name: "D3-Omni" }).getAttribute("href")).toBe("/projects/p7");
    expect(window.location.pathname).toBe("/projects");
    expect(screen.getByTestId("current-user").textContent).toBe("Ada Admin");
    expect(calls.find((c) => c.path === "/api/v1/projects")?.auth).toBe("Bearer A1");
    expect(window.localStorage.getItem(SESSION_KEY)).toBe("1");
  });

  it("shows why sign-in failed", async () => {
    renderApp({ "POST /api/v1/auth/login": () => apiError(401, "unauthorized", "Wrong email or password.") }, "/login");
    fireEvent.change(await screen.findByLabelText("Email"), { target: { value: "a@b.c" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "nope" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toContain("Wrong email or password.");
    expect(window.location.pathname).toBe("/login");
  });

  it("restores a stored session on reload without asking to sign in", async () => {
    window.localStorage.setItem(SESSION_KEY, "1");
    renderApp({
      "POST /api/v1/auth/refresh": () => json(200, authBody("A2")),
      "GET /api/v1/projects/p7": () => json(200, projects[0]),
    }, "/projects/p7");
    expect(await screen.findByRole("heading", { name: "D3-Omni" })).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe("/projects/p7/overview"));
    expect(screen.getByRole("navigation", { name: "Project sections" }).textContent).toContain("Members");
    expect(window.localStorage.getItem(SESSION_KEY)).toBe("1");
  });

  it("returns to the login page when the session can no longer be refreshed", async () => {
    window.localStorage.setItem(SESSION_KEY, "1");
    renderApp({ "POST /api/v1/auth/refresh": () => apiError(401, "unauthorized", "Session revoked.") });
    await screen.findByRole("form", { name: "Sign in" });
    expect(window.location.pathname).toBe("/login");
    expect(window.localStorage.getItem(SESSION_KEY)).toBeNull();
  });
});
