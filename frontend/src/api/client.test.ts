import { describe, expect, it, vi } from "vitest";
import { ApiClient, CSRF_HEADER, LEGACY_REFRESH_TOKEN_KEY, SESSION_KEY, UNAVAILABLE_TRIES, retryDelay } from "./client";
import { ApiError } from "./errors";
import { adminUser, apiError, authBody, fakeFetch, json, memoryStorage } from "../test/fakeApi";

function client(routes: Parameters<typeof fakeFetch>[0], stored: Record<string, string> = {}) {
  const f = fakeFetch(routes);
  const storage = memoryStorage(stored);
  const c = new ApiClient({ fetch: f.fetch, storage, locks: null });
  return { c, calls: f.calls, storage };
}

describe("ApiClient sessions", () => {
  it("logs in, marks that a session exists (never storing a token) and sends the access token as a bearer", async () => {
    const { c, calls, storage } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "GET /api/v1/projects": () => json(200, []),
    });
    const user = await c.login("admin@example.com", "pw");
    expect(user).toEqual(adminUser);
    expect(storage.getItem(SESSION_KEY)).toBe("1");
    expect(calls[0]).toMatchObject({ auth: null, body: { email: "admin@example.com", password: "pw" } });

    await c.get("/projects");
    expect(calls[1].auth).toBe("Bearer A1");
  });

  it("removes a refresh token an older version left in storage", () => {
    const { storage } = client({}, { [LEGACY_REFRESH_TOKEN_KEY]: "arb_rt_old" });
    expect(storage.getItem(LEGACY_REFRESH_TOKEN_KEY)).toBeNull();
  });

  it("refreshes once on token_expired with the cookie and the CSRF header, and retries", async () => {
    const { c, calls } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "POST /api/v1/auth/refresh": () => json(200, authBody("A2")),
      "GET /api/v1/me": (call) =>
        call.auth === "Bearer A2" ? json(200, adminUser) : apiError(401, "token_expired", "Access token expired."),
    });
    await c.login("admin@example.com", "pw");
    await expect(c.get("/me")).resolves.toEqual(adminUser);

    expect(calls.map((x) => `${x.method} ${x.path}`)).toEqual([
      "POST /api/v1/auth/login",
      "GET /api/v1/me",
      "POST /api/v1/auth/refresh",
      "GET /api/v1/me",
    ]);
    expect(calls[2].body).toBeUndefined();
    expect(calls[2].auth).toBeNull();
    expect(calls[2].headers.get(CSRF_HEADER)).toBe("1");
    expect(calls[2].credentials).toBe("same-origin");
  });

  it("shares one refresh between concurrent requests (rotation would revoke a reused token)", async () => {
    const { c, calls } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "POST /api/v1/auth/refresh": async () => {
        await new Promise((r) => setTimeout(r, 10));
        return json(200, authBody("A2"));
      },
      "GET /api/v1/projects": (call) =>
        call.auth === "Bearer A2" ? json(200, []) : apiError(401, "token_expired", "expired"),
    });
    await c.login("a@b.c", "pw");
    await Promise.all([c.get("/projects"), c.get("/projects"), c.get("/projects")]);
    expect(calls.filter((x) => x.path === "/api/v1/auth/refresh")).toHaveLength(1);
  });

  it("ends the session when the refresh is refused, and tells listeners", async () => {
    const { c, calls, storage } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "POST /api/v1/auth/refresh": () => apiError(401, "unauthorized", "Refresh token revoked."),
      "GET /api/v1/me": () => apiError(401, "token_expired", "expired"),
    });
    const seen: unknown[] = [];
    c.onSessionChange((u) => seen.push(u));
    await c.login("a@b.c", "pw");

    const err = await c.get("/me").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("unauthorized");
    expect(storage.getItem(SESSION_KEY)).toBeNull();
    expect(seen).toEqual([adminUser, null]);
    // The failed request is not retried after the refresh failed.
    expect(calls.filter((x) => x.path === "/api/v1/me")).toHaveLength(1);
  });

  it("does not loop when the retried request is rejected again", async () => {
    const { c, calls } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "POST /api/v1/auth/refresh": () => json(200, authBody("A2")),
      "GET /api/v1/me": () => apiError(401, "token_expired", "expired"),
    });
    await c.login("a@b.c", "pw");
    await expect(c.get("/me")).rejects.toMatchObject({ code: "token_expired" });
    expect(calls.filter((x) => x.path === "/api/v1/auth/refresh")).toHaveLength(1);
    expect(calls.filter((x) => x.path === "/api/v1/me")).toHaveLength(2);
    expect(c.hasStoredSession()).toBe(false);
  });

  it("does not refresh on other 401 codes", async () => {
    const { c, calls } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "GET /api/v1/me": () => apiError(401, "unauthorized", "Invalid token."),
    });
    await c.login("a@b.c", "pw");
    await expect(c.get("/me")).rejects.toMatchObject({ status: 401, code: "unauthorized" });
    expect(calls.some((x) => x.path === "/api/v1/auth/refresh")).toBe(false);
  });

  it("restores a session from the refresh cookie before the first request", async () => {
    const { c, calls } = client(
      {
        "POST /api/v1/auth/refresh": () => json(200, authBody("A9")),
        "GET /api/v1/projects": () => json(200, [{ id: 3 }]),
      },
      { [SESSION_KEY]: "1" },
    );
    await expect(c.get("/projects")).resolves.toEqual([{ id: 3 }]);
    expect(calls[0]).toMatchObject({ path: "/api/v1/auth/refresh", body: undefined });
    expect(calls[1].auth).toBe("Bearer A9");
  });

  it("logout ends the session on the server with the access token and locally", async () => {
    const { c, calls, storage } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "POST /api/v1/auth/logout": () => new Response(null, { status: 204 }),
    });
    await c.login("a@b.c", "pw");
    await c.logout();
    expect(calls[1]).toMatchObject({ path: "/api/v1/auth/logout", auth: "Bearer A1", body: undefined });
    expect(storage.getItem(SESSION_KEY)).toBeNull();
    expect(c.currentAccessToken()).toBeNull();
  });

  it("a password change starts a new session", async () => {
    const { c, calls } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "POST /api/v1/me/password": () => json(200, authBody("A2")),
    });
    await c.login("a@b.c", "pw");
    await c.changePassword("old one", "a new passphrase");
    expect(calls[1]).toMatchObject({ auth: "Bearer A1", body: { current_password: "old one", new_password: "a new passphrase" } });
    expect(c.currentAccessToken()).toBe("A2");
  });

  it("serialises refreshes through the lock manager when one is given", async () => {
    const request = vi.fn((_name: string, fn: () => Promise<unknown>) => fn());
    const f = fakeFetch({ "POST /api/v1/auth/refresh": () => json(200, authBody("A2")) });
    const c = new ApiClient({
      fetch: f.fetch,
      storage: memoryStorage({ [SESSION_KEY]: "1" }),
      locks: { request } as unknown as LockManager,
    });
    await c.refresh();
    expect(request).toHaveBeenCalledTimes(1);
    expect(request.mock.calls[0][0]).toBe("arbiter.refresh");
  });
});

// The browser half of the database-blip promise (TestDatabaseBlipKeepsSessions on the server):
// a 503 is no verdict on the credentials, so the client waits and keeps the session.
describe("ApiClient when the server is unavailable (database blip)", () => {
  const unavailable = () =>
    new Response(JSON.stringify({ error: { code: "unavailable", message: "try again shortly", details: null } }), {
      status: 503,
      headers: { "Content-Type": "application/json", "Retry-After": "5" },
    });

  it("waits as Retry-After says and retries a request, keeping the session", async () => {
    const slept: number[] = [];
    const f = fakeFetch({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "GET /api/v1/me": [unavailable, unavailable, () => json(200, adminUser)],
    });
    const storage = memoryStorage();
    const c = new ApiClient({ fetch: f.fetch, storage, locks: null, sleep: async (ms) => void slept.push(ms) });
    await c.login("a@b.c", "pw");
    await expect(c.get("/me")).resolves.toEqual(adminUser);
    expect(slept).toEqual([5000, 5000]);
    expect(c.currentAccessToken()).toBe("A1");
    expect(storage.getItem(SESSION_KEY)).toBe("1");
  });

  it("keeps the session when a refresh meets an unavailable server, and refreshes once it is back", async () => {
    const f = fakeFetch({
      "POST /api/v1/auth/refresh": [unavailable, unavailable, unavailable, unavailable, () => json(200, authBody("A2"))],
      "GET /api/v1/me": () => json(200, adminUser),
    });
    const storage = memoryStorage({ [SESSION_KEY]: "1" });
    const seen: unknown[] = [];
    const c = new ApiClient({ fetch: f.fetch, storage, locks: null, sleep: async () => {} });
    c.onSessionChange((u) => seen.push(u));
    await expect(c.get("/me")).rejects.toMatchObject({ status: 503, code: "unavailable" });
    expect(f.calls.filter((x) => x.path === "/api/v1/auth/refresh")).toHaveLength(UNAVAILABLE_TRIES);
    expect(storage.getItem(SESSION_KEY)).toBe("1");
    expect(seen).toEqual([]);
    await expect(c.get("/me")).resolves.toEqual(adminUser);
    expect(c.currentAccessToken()).toBe("A2");
  });

  it("gives up after a few tries without ending the session", async () => {
    const f = fakeFetch({
      "POST /api/v1/auth/login": () => json(200, authBody("A1")),
      "GET /api/v1/projects": unavailable,
    });
    const c = new ApiClient({ fetch: f.fetch, storage: memoryStorage(), locks: null, sleep: async () => {} });
    await c.login("a@b.c", "pw");
    await expect(c.get("/projects")).rejects.toMatchObject({ status: 503 });
    expect(f.calls.filter((x) => x.path === "/api/v1/projects")).toHaveLength(UNAVAILABLE_TRIES);
    expect(c.currentAccessToken()).toBe("A1");
  });

  it("computes waits from Retry-After, else doubling from a second, never past 10 s", () => {
    expect(retryDelay("3", 1)).toBe(3000);
    expect(retryDelay(null, 1)).toBe(1000);
    expect(retryDelay(null, 3)).toBe(4000);
    expect(retryDelay("3600", 1)).toBe(10_000);
    expect(retryDelay("soon", 2)).toBe(2000);
  });
});

describe("ApiClient errors", () => {
  it("parses the server's error shape including details", async () => {
    const details = { name: { code: "required", message: "Name is required." }, description: "Too long." };
    const { c } = client({
      "POST /api/v1/projects": () => apiError(422, "validation_failed", "The project is not valid.", details),
    });
    const err = (await c.post("/projects", { body: { name: "" } }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.code).toBe("validation_failed");
    expect(err.message).toBe("The project is not valid.");
    expect(err.details).toEqual(details);
    expect(err.fieldErrors()).toEqual({ name: "Name is required.", description: "Too long." });
  });

  it("turns a non-JSON failure into http_error", async () => {
    const { c } = client({
      "GET /api/v1/me": () => new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway" }),
    });
    await expect(c.get("/me", { auth: false })).rejects.toMatchObject({
      status: 502,
      code: "http_error",
      message: "The server answered 502 (Bad Gateway).",
    });
  });

  it("turns JSON that is not the error shape into http_error", async () => {
    const { c } = client({ "GET /api/v1/me": () => json(500, { message: "boom" }) });
    await expect(c.get("/me", { auth: false })).rejects.toMatchObject({
      code: "http_error",
    });
  });

  it("reports an unreachable server as network_error and keeps the session", async () => {
    const storage = memoryStorage({ [SESSION_KEY]: "1" });
    const c = new ApiClient({
      fetch: (() => Promise.reject(new TypeError("Failed to fetch"))) as typeof fetch,
      storage,
      locks: null,
    });
    await expect(c.get("/me")).rejects.toMatchObject({ status: 0, code: "network_error" });
    expect(storage.getItem(SESSION_KEY)).toBe("1");
  });

  it("returns undefined for 204 No Content", async () => {
    const { c } = client({ "DELETE /api/v1/me/tokens/7": () => new Response(null, { status: 204 }) });
    await expect(c.delete("/me/tokens/{tid}", { path: { tid: "7" }, auth: false })).resolves.toBeUndefined();
  });
});

describe("ApiClient routes", () => {
  it("fills the path's parameters escaped and sends the set query parameters", async () => {
    const { c, calls } = client({ "GET /api/v1/projects/p%201/items": () => json(200, { items: [], next_cursor: null }) });
    await c.get("/projects/{pid}/items", { path: { pid: "p 1" }, query: { stage: "done", flagged: false, cursor: undefined } });
    expect(calls.map((x) => `${x.method} ${x.path}`)).toEqual(["GET /api/v1/projects/p%201/items"]);
  });

  it("sends the query string as built", async () => {
    const seen: string[] = [];
    const c = new ApiClient({
      fetch: (async (input: RequestInfo | URL) => {
        seen.push(String(input));
        return json(200, { items: [], next_cursor: null });
      }) as typeof fetch,
      storage: memoryStorage(),
      locks: null,
      baseUrl: "http://arbiter.test",
    });
    await c.get("/projects/{pid}/items", { path: { pid: "p1" }, query: { stage: "done", flagged: false, cursor: undefined } });
    expect(seen).toEqual(["http://arbiter.test/api/v1/projects/p1/items?stage=done&flagged=false"]);
  });

  it("sends a JSON body and extra headers", async () => {
    const { c, calls } = client({ "POST /api/v1/projects/p1/assignments/a1/submit": () => json(200, { item_stage: "review" }) });
    await c.post("/projects/{pid}/assignments/{aid}/submit", {
      path: { pid: "p1", aid: "a1" },
      body: { answers: { q: "yes" } },
      headers: { "Idempotency-Key": "k1" },
    });
    expect(calls[0].body).toEqual({ answers: { q: "yes" } });
    expect(calls[0].headers.get("Idempotency-Key")).toBe("k1");
    expect(calls[0].headers.get("Content-Type")).toBe("application/json");
  });

  it("follows only the API's own URLs", async () => {
    const { c, calls } = client({ "GET /api/v1/projects/p1/imports/i1": () => json(200, { id: "i1" }) });
    await expect(c.getUrl("/api/v1/projects/p1/imports/i1")).resolves.toEqual({ id: "i1" });
    await expect(c.getUrl("https://elsewhere.test/api/v1/me")).rejects.toMatchObject({ code: "http_error" });
    expect(calls).toHaveLength(1);
  });

  // note: npm run typecheck is what checks this one: each @ts-expect-error fails it once the call compiles.
  it("refuses, at compile time, a path the document does not have, a missing parameter and a wrong method", () => {
    const { c } = client({});
    const neverCalled = () => {
      // @ts-expect-error: not a route of docs/openapi.yaml
      void c.get("/projects/{pid}/nowhere", { path: { pid: "p1" } });
      // @ts-expect-error: the route takes {pid}
      void c.get("/projects/{pid}/agreement");
      // @ts-expect-error: the route answers POST, not GET
      void c.get("/auth/login");
    };
    expect(typeof neverCalled).toBe("function");
  });
});

