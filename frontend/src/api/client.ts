import { ApiError, errorFromResponse } from "./errors";
import { API_PREFIX, routeUrl, type ApiPath, type InitArg, type Method, type Params, type PathsFor, type Reply, type RequestSettings } from "./paths";
import type { AuthResponse, User } from "./types";

/** What a route's init holds once its types have done their work. */
type RouteInit = { path?: Record<string, string>; query?: object; body?: unknown } & RequestSettings;

/** The subset of the Web Storage API the client needs. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ApiClientOptions {
  /** Prefix for every path, e.g. "" for same-origin or "http://host:port". */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Where the "a session may exist" marker survives reloads; localStorage by default. */
  storage?: TokenStorage;
  /** Serialises refreshes across browser tabs; navigator.locks by default. */
  locks?: Pick<LockManager, "request"> | null;
  /** Waits between retries of an unavailable server; setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
}

type SessionListener = (user: User | null) => void;

/** Marks that a session may exist; the refresh token itself is in an HttpOnly cookie. */
export const SESSION_KEY = "arbiter.session";
/** Where older versions kept the refresh token; removed on sight. */
export const LEGACY_REFRESH_TOKEN_KEY = "arbiter.refresh_token";
/** The header the refresh route needs, which a cross-site form cannot send. */
export const CSRF_HEADER = "X-Arbiter-CSRF";
const REFRESH_LOCK = "arbiter.refresh";
/** Tries of a request the server answers 503 before the error reaches the caller. */
export const UNAVAILABLE_TRIES = 4;
const MAX_RETRY_WAIT_MS = 10_000;

/**
 * ApiClient talks to /api/v1. The access token lives only in memory; the
 * refresh token lives in an HttpOnly cookie that no script can read, so a
 * reload keeps the session. A request answered 401 `token_expired` refreshes
 * once and is retried; when the session cannot be renewed (a real 401), listeners
 * are told the user is gone. A server that is unavailable (503) is waited for
 * as its Retry-After says, and the session is kept.
 */
export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;
  private readonly storage: TokenStorage;
  private readonly locks: Pick<LockManager, "request"> | null;
  private readonly sleep: (ms: number) => Promise<void>;
  private accessToken: string | null = null;
  private refreshing: Promise<AuthResponse> | null = null;
  private readonly listeners = new Set<SessionListener>();

  constructor(opts: ApiClientOptions = {}) {
    this.baseUrl = opts.baseUrl ?? "";
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.storage = opts.storage ?? window.localStorage;
    this.locks =
      opts.locks !== undefined
        ? opts.locks
        : typeof navigator !== "undefined" && navigator.locks
          ? navigator.locks
          : null;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.storage.removeItem(LEGACY_REFRESH_TOKEN_KEY);
  }

  /** Subscribes to sign-in and sign-out; returns the unsubscribe function. */
  onSessionChange(fn: SessionListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** True when a session may be restored from the refresh cookie. */
  hasStoredSession(): boolean {
    return this.storage.getItem(SESSION_KEY) === "1";
  }

  /** The current access token, for the rare caller that must build its own request. */
  currentAccessToken(): string | null {
    return this.accessToken;
  }

  async login(email: string, password: string): Promise<User> {
    const auth = await this.post("/auth/login", { body: { email, password }, auth: false });
    this.startSession(auth);
    return auth.user;
  }

  /** Restores the session from the refresh cookie, or returns null. */
  async restore(): Promise<User | null> {
    if (!this.hasStoredSession()) return null;
    try {
      return (await this.refresh()).user;
    } catch (err) {
      if (err instanceof ApiError && (err.code === "network_error" || err.status === 503)) throw err;
      return null;
    }
  }

  /** Ends the session on the server (best effort) and locally. */
  async logout(): Promise<void> {
    try {
      if (this.accessToken || this.hasStoredSession()) await this.post("/auth/logout");
    } catch {
      // The local session ends either way; the server's expires on its own.
    } finally {
      this.endSession();
    }
  }

  /** Changes the password; every other session ends and this one goes on. */
  async changePassword(currentPassword: string, newPassword: string): Promise<void> {
    const auth = await this.post("/me/password", { body: { current_password: currentPassword, new_password: newPassword } });
    this.startSession(auth);
  }

  /** Changes the caller's own settings (their interface language); listeners get the changed user. */
  async updateMe(settings: { locale?: User["locale"] }): Promise<User> {
    const user = await this.patch("/me", { body: settings });
    this.listeners.forEach((fn) => fn(user));
    return user;
  }

  /** GET of a route, e.g. `get("/projects/{pid}/agreement", { path: { pid }, query: { stage } })`. */
  get<P extends PathsFor<"get">>(path: P, ...init: InitArg<P, "get">): Promise<Reply<P, "get">> {
    return this.route("GET", path, init[0]);
  }
  post<P extends PathsFor<"post">>(path: P, ...init: InitArg<P, "post">): Promise<Reply<P, "post">> {
    return this.route("POST", path, init[0]);
  }
  put<P extends PathsFor<"put">>(path: P, ...init: InitArg<P, "put">): Promise<Reply<P, "put">> {
    return this.route("PUT", path, init[0]);
  }
  patch<P extends PathsFor<"patch">>(path: P, ...init: InitArg<P, "patch">): Promise<Reply<P, "patch">> {
    return this.route("PATCH", path, init[0]);
  }
  delete<P extends PathsFor<"delete">>(path: P, ...init: InitArg<P, "delete">): Promise<Reply<P, "delete">> {
    return this.route("DELETE", path, init[0]);
  }

  /** The URL of a route, for a request the client cannot send itself (an upload that reports its progress). */
  url<M extends Method, P extends PathsFor<M>>(_method: M, path: P, params: Params<P, M>): string {
    return this.baseUrl + routeUrl(path, params as RouteInit);
  }

  /**
   * GETs an API URL that is not a route of the document: a URL the server
   * handed out (the Location of a background import), or a route newer than
   * the document. The caller names the answer's type; only URLs under
   * /api/v1/ are sent.
   */
  getUrl<T>(url: string): Promise<T> {
    if (!url.startsWith(`${API_PREFIX}/`)) return Promise.reject(new ApiError(0, "http_error", `Not an API URL: ${url}`));
    return this.request<T>("GET", url);
  }

  /**
   * POSTs without a body in a request that outlives the page (`keepalive`),
   * for a page being left: no refresh or retry, and no error is thrown;
   * resolves to the response, or null when nothing could be sent.
   */
  async sendKeepalive<P extends PathsFor<"post">>(path: P, ...init: InitArg<P, "post">): Promise<Response | null> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.accessToken) headers.Authorization = `Bearer ${this.accessToken}`;
    try {
      return await this.fetchFn(this.baseUrl + routeUrl(path, init[0] as RouteInit), { method: "POST", keepalive: true, headers });
    } catch {
      return null;
    }
  }

  private route<T>(method: string, path: ApiPath, init: object | undefined): Promise<T> {
    const { body, auth, headers, ...params } = (init ?? {}) as RouteInit;
    return this.request<T>(method, routeUrl(path, params), body, { auth, headers });
  }

  /** Sends one request to an API URL (a JSON body, or a FormData as multipart); throws ApiError for anything but a 2xx answer. */
  private async request<T>(
    method: string,
    path: string,
    body?: unknown,
    opts: RequestSettings = {},
  ): Promise<T> {
    const auth = opts.auth ?? true;
    if (auth && !this.accessToken && this.hasStoredSession()) {
      await this.refresh();
    }
    let res = await this.sendRetrying(method, path, body, auth, opts.headers);
    if (auth && res.status === 401) {
      const err = await errorFromResponse(res);
      if (err.code !== "token_expired" || !this.hasStoredSession()) {
        this.endSession();
        throw err;
      }
      await this.refresh();
      res = await this.sendRetrying(method, path, body, auth, opts.headers);
      if (res.status === 401) {
        this.endSession();
        throw await errorFromResponse(res);
      }
    }
    if (!res.ok) throw await errorFromResponse(res);
    return (await readBody(res)) as T;
  }

  /**
   * Sends a request, and while the server answers 503 (a database failing
   * over, a restart) waits as Retry-After says and sends it again, up to
   * UNAVAILABLE_TRIES times. A 503 is no verdict on the credentials: the session
   * is kept whatever happens.
   */
  private async sendRetrying(
    method: string,
    path: string,
    body: unknown,
    auth: boolean,
    extra?: Record<string, string>,
  ): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const res = await this.send(method, path, body, auth, extra);
      if (res.status !== 503 || attempt >= UNAVAILABLE_TRIES) return res;
      await res.body?.cancel();
      await this.sleep(retryDelay(res.headers.get("Retry-After"), attempt));
    }
  }

  /**
   * Exchanges the refresh token for a new pair. Concurrent callers share one
   * exchange: the server rotates refresh tokens and treats reuse as theft.
   */
  refresh(): Promise<AuthResponse> {
    if (!this.refreshing) {
      this.refreshing = this.withRefreshLock(() => this.doRefresh()).finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private withRefreshLock<R>(fn: () => Promise<R>): Promise<R> {
    if (!this.locks) return fn();
    return this.locks.request(REFRESH_LOCK, fn) as Promise<R>;
  }

  private async doRefresh(): Promise<AuthResponse> {
    // note: the cookie is read by the browser when the request leaves, inside the lock, so a
    // token another tab just rotated is the one sent.
    const res = await this.sendRetrying("POST", routeUrl("/auth/refresh"), undefined, false, { [CSRF_HEADER]: "1" });
    if (!res.ok) {
      const err = await errorFromResponse(res);
      // note: only a verdict on the refresh token ends the session; an unavailable server does not
      if (res.status === 401 || res.status === 403) this.endSession();
      throw err;
    }
    const auth = (await readBody(res)) as AuthResponse;
    this.startSession(auth);
    return auth;
  }

  private startSession(auth: AuthResponse) {
    this.accessToken = auth.access_token;
    this.storage.setItem(SESSION_KEY, "1");
    this.listeners.forEach((fn) => fn(auth.user));
  }

  private endSession() {
    const had = this.accessToken !== null || this.hasStoredSession();
    this.accessToken = null;
    this.storage.removeItem(SESSION_KEY);
    if (had) this.listeners.forEach((fn) => fn(null));
  }

  private async send(
    method: string,
    path: string,
    body: unknown,
    auth: boolean,
    extra?: Record<string, string>,
  ): Promise<Response> {
    const headers: Record<string, string> = { Accept: "application/json", ...extra };
    // note: a form (a multipart upload) goes as it is; the browser writes its Content-Type with the boundary
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers["Content-Type"] = "application/json";
    if (auth && this.accessToken) headers.Authorization = `Bearer ${this.accessToken}`;
    try {
      return await this.fetchFn(this.baseUrl + path, {
        method,
        headers,
        credentials: "same-origin",
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, "network_error", "Could not reach the server. Check your connection and try again.");
    }
  }
}

/** How long to wait before the next try of an unavailable server: Retry-After when it says, else 1, 2, 4 s. */
export function retryDelay(retryAfter: string | null, attempt: number): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  const ms = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000 * 2 ** (attempt - 1);
  return Math.min(ms, MAX_RETRY_WAIT_MS);
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(res.status, "http_error", "The server sent a response that is not JSON.");
  }
}
