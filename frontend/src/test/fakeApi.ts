import { vi } from "vitest";

export interface RecordedCall {
  method: string;
  path: string;
  /** The query string, "" or "?pool=calibration". */
  search: string;
  auth: string | null;
  body: unknown;
  headers: Headers;
  credentials: RequestCredentials | undefined;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

export function apiError(status: number, code: string, message: string, details?: unknown): Response {
  return json(status, { error: { code, message, details } });
}

/**
 * A fetch double: routes "METHOD /path" to handlers (a queue per route, the
 * last one repeating) and records every call with its Authorization header.
 */
export function fakeFetch(routes: Record<string, Handler | Handler[]>) {
  const calls: RecordedCall[] = [];
  const queues = new Map(Object.entries(routes).map(([k, v]) => [k, Array.isArray(v) ? [...v] : [v]]));
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://arbiter.test");
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    const call: RecordedCall = {
      method,
      path: url.pathname,
      search: url.search,
      auth: headers.get("Authorization"),
      body: init?.body instanceof FormData ? init.body : init?.body ? JSON.parse(String(init.body)) : undefined,
      headers,
      credentials: init?.credentials,
    };
    calls.push(call);
    const queue = queues.get(`${method} ${url.pathname}`);
    if (!queue || queue.length === 0) return apiError(404, "not_found", `no fake route for ${method} ${url.pathname}`);
    const handler = queue.length > 1 ? queue.shift()! : queue[0];
    return handler(call);
  });
  return { fetch: fn as unknown as typeof fetch, calls };
}

/** An in-memory Storage. */
export function memoryStorage(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

export const adminUser = { id: "u1", email: "admin@example.com", name: "Ada Admin", is_admin: true };

/** A session answer; the refresh token is a cookie the browser keeps, never in the body. */
export function authBody(access: string, user = adminUser) {
  return { access_token: access, expires_in: 900, token_type: "Bearer", user };
}
