import { describe, expect, it, vi } from "vitest";
import { ApiClient, REFRESH_TOKEN_KEY } from "./client";
import { ApiError } from "./errors";
import { adminUser, apiError, authBody, fakeFetch, json, memoryStorage } from "../test/fakeApi";

function client(routes: Parameters<typeof fakeFetch>[0], stored: Record<string, string> = {}) {
  const f = fakeFetch(routes);
  const storage = memoryStorage(stored);
  const c = new ApiClient({ fetch: f.fetch, storage, locks: null });
  return { c, calls: f.calls, storage };
}

describe("ApiClient sessions", () => {
  it("logs in, keeps the refresh token in storage and sends the access token as a bearer", async () => {
    const { c, calls, storage } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1", "R1")),
      "GET /api/v1/projects": () => json(200, []),
    });
    const user = await c.login("admin@example.com", "pw");
    expect(user).toEqual(adminUser);
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBe("R1");
    expect(calls[0]).toMatchObject({ auth: null, body: { email: "admin@example.com", password: "pw" } });

    await c.get("/api/v1/projects");
    expect(calls[1].auth).toBe("Bearer A1");
  });

  it("refreshes once on token_expired and retries with the new access token", async () => {
    const { c, calls, storage } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1", "R1")),
      "POST /api/v1/auth/refresh": () => json(200, authBody("A2", "R2")),
      "GET /api/v1/me": (call) =>
        call.auth === "Bearer A2" ? json(200, adminUser) : apiError(401, "token_expired", "Access token expired."),
    });
    await c.login("admin@example.com", "pw");
    await expect(c.get("/api/v1/me")).resolves.toEqual(adminUser);

    expect(calls.map((x) => `${x.method} ${x.path}`)).toEqual([
      "POST /api/v1/auth/login",
      "GET /api/v1/me",
      "POST /api/v1/auth/refresh",
      "GET /api/v1/me",
    ]);
    expect(calls[2].body).toEqual({ refresh_token: "R1" });
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBe("R2");
  });

  it("shares one refresh between concurrent requests (rotation would revoke a reused token)", async () => {
    const { c, calls } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1", "R1")),
      "POST /api/v1/auth/refresh": async () => {
        await new Promise((r) => setTimeout(r, 10));
        return json(200, authBody("A2", "R2"));
      },
      "GET /api/v1/projects": (call) =>
        call.auth === "Bearer A2" ? json(200, []) : apiError(401, "token_expired", "expired"),
    });
    await c.login("a@b.c", "pw");
    await Promise.all([c.get("/api/v1/projects"), c.get("/api/v1/projects"), c.get("/api/v1/projects")]);
    expect(calls.filter((x) => x.path === "/api/v1/auth/refresh")).toHaveLength(1);
  });

  it("ends the session when the refresh is refused, and tells listeners", async () => {
    const { c, calls, storage } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1", "R1")),
      "POST /api/v1/auth/refresh": () => apiError(401, "unauthorized", "Refresh token revoked."),
      "GET /api/v1/me": () => apiError(401, "token_expired", "expired"),
    });
    const seen: unknown[] = [];
    c.onSessionChange((u) => seen.push(u));
    await c.login("a@b.c", "pw");

    const err = await c.get("/api/v1/me").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("unauthorized");
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    expect(seen).toEqual([adminUser, null]);
    // The failed request is not retried after the refresh failed.
    expect(calls.filter((x) => x.path === "/api/v1/me")).toHaveLength(1);
  });

  it("does not loop when the retried request is rejected again", async () => {
    const { c, calls } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1", "R1")),
      "POST /api/v1/auth/refresh": () => json(200, authBody("A2", "R2")),
      "GET /api/v1/me": () => apiError(401, "token_expired", "expired"),
    });
    await c.login("a@b.c", "pw");
    await expect(c.get("/api/v1/me")).rejects.toMatchObject({ code: "token_expired" });
    expect(calls.filter((x) => x.path === "/api/v1/auth/refresh")).toHaveLength(1);
    expect(calls.filter((x) => x.path === "/api/v1/me")).toHaveLength(2);
    expect(c.hasStoredSession()).toBe(false);
  });

  it("does not refresh on other 401 codes", async () => {
    const { c, calls } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1", "R1")),
      "GET /api/v1/me": () => apiError(401, "unauthorized", "Invalid token."),
    });
    await c.login("a@b.c", "pw");
    await expect(c.get("/api/v1/me")).rejects.toMatchObject({ status: 401, code: "unauthorized" });
    expect(calls.some((x) => x.path === "/api/v1/auth/refresh")).toBe(false);
  });

  it("restores a session from the stored refresh token before the first request", async () => {
    const { c, calls } = client(
      {
        "POST /api/v1/auth/refresh": () => json(200, authBody("A9", "R10")),
        "GET /api/v1/projects": () => json(200, [{ id: 3 }]),
      },
      { [REFRESH_TOKEN_KEY]: "R9" },
    );
    await expect(c.get("/api/v1/projects")).resolves.toEqual([{ id: 3 }]);
    expect(calls[0]).toMatchObject({ path: "/api/v1/auth/refresh", body: { refresh_token: "R9" } });
    expect(calls[1].auth).toBe("Bearer A9");
  });

  it("logout revokes the refresh token on the server and clears it locally", async () => {
    const { c, calls, storage } = client({
      "POST /api/v1/auth/login": () => json(200, authBody("A1", "R1")),
      "POST /api/v1/auth/logout": () => new Response(null, { status: 204 }),
    });
    await c.login("a@b.c", "pw");
    await c.logout();
    expect(calls[1]).toMatchObject({ path: "/api/v1/auth/logout", body: { refresh_token: "R1" } });
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    expect(c.currentAccessToken()).toBeNull();
  });

  it("serialises refreshes through the lock manager when one is given", async () => {
    const request = vi.fn((_name: string, fn: () => Promise<unknown>) => fn());
    const f = fakeFetch({ "POST /api/v1/auth/refresh": () => json(200, authBody("A2", "R2")) });
    const c = new ApiClient({
      fetch: f.fetch,
      storage: memoryStorage({ [REFRESH_TOKEN_KEY]: "R1" }),
      locks: { request } as unknown as LockManager,
    });
    await c.refresh();
    expect(request).toHaveBeenCalledTimes(1);
    expect(request.mock.calls[0][0]).toBe("arbiter.refresh");
  });
});

describe("ApiClient errors", () => {
  it("parses the server's error shape including details", async () => {
    const details = { name: { code: "required", message: "Name is required." }, description: "Too long." };
    const { c } = client({
      "POST /api/v1/projects": () => apiError(422, "validation_failed", "The project is not valid.", details),
    });
    const err = (await c.post("/api/v1/projects", { name: "" }).catch((e: unknown) => e)) as ApiError;
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
    await expect(c.request("GET", "/api/v1/me", undefined, { auth: false })).rejects.toMatchObject({
      status: 502,
      code: "http_error",
      message: "The server answered 502 (Bad Gateway).",
    });
  });

  it("turns JSON that is not the error shape into http_error", async () => {
    const { c } = client({ "GET /api/v1/me": () => json(500, { message: "boom" }) });
    await expect(c.request("GET", "/api/v1/me", undefined, { auth: false })).rejects.toMatchObject({
      code: "http_error",
    });
  });

  it("reports an unreachable server as network_error and keeps the session", async () => {
    const storage = memoryStorage({ [REFRESH_TOKEN_KEY]: "R1" });
    const c = new ApiClient({
      fetch: (() => Promise.reject(new TypeError("Failed to fetch"))) as typeof fetch,
      storage,
      locks: null,
    });
    await expect(c.get("/api/v1/me")).rejects.toMatchObject({ status: 0, code: "network_error" });
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBe("R1");
  });

  it("returns undefined for 204 No Content", async () => {
    const { c } = client({ "DELETE /api/v1/me/tokens/7": () => new Response(null, { status: 204 }) });
    await expect(c.request("DELETE", "/api/v1/me/tokens/7", undefined, { auth: false })).resolves.toBeUndefined();
  });
});
