import { ApiError, errorFromResponse } from "./errors";
import type { AuthResponse, User } from "./types";

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
  /** Where the refresh token survives reloads; localStorage by default. */
  storage?: TokenStorage;
  /** Serialises refreshes across browser tabs; navigator.locks by default. */
  locks?: Pick<LockManager, "request"> | null;
}

type SessionListener = (user: User | null) => void;

export const REFRESH_TOKEN_KEY = "arbiter.refresh_token";
const REFRESH_LOCK = "arbiter.refresh";

/**
 * ApiClient talks to /api/v1. The access token lives only in memory; the
 * refresh token lives in storage so a reload keeps the session. A request
 * answered 401 `token_expired` refreshes once and is retried; when the session
 * cannot be renewed, listeners are told the user is gone.
 */
export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;
  private readonly storage: TokenStorage;
  private readonly locks: Pick<LockManager, "request"> | null;
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
  }

  /** Subscribes to sign-in and sign-out; returns the unsubscribe function. */
  onSessionChange(fn: SessionListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** True when a refresh token is stored, i.e. a session may be restored. */
  hasStoredSession(): boolean {
    return !!this.storage.getItem(REFRESH_TOKEN_KEY);
  }

  /** The current access token, for the rare caller that must build its own request. */
  currentAccessToken(): string | null {
    return this.accessToken;
  }

  async login(email: string, password: string): Promise<User> {
    const auth = await this.request<AuthResponse>("POST", "/api/v1/auth/login", { email, password }, { auth: false });
    this.startSession(auth);
    return auth.user;
  }

  /** Restores the session from the stored refresh token, or returns null. */
  async restore(): Promise<User | null> {
    if (!this.hasStoredSession()) return null;
    try {
      return (await this.refresh()).user;
    } catch (err) {
      if (err instanceof ApiError && err.code === "network_error") throw err;
      return null;
    }
  }

  /** Ends the session on the server (best effort) and locally. */
  async logout(): Promise<void> {
    const refreshToken = this.storage.getItem(REFRESH_TOKEN_KEY);
    this.endSession();
    if (!refreshToken) return;
    try {
      await this.request<void>("POST", "/api/v1/auth/logout", { refresh_token: refreshToken }, { auth: false });
    } catch {
      // The local session is gone either way; the server token expires on its own.
    }
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>("GET", path);
  }
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>("POST", path, body);
  }
  put<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>("PUT", path, body);
  }
  delete<T = void>(path: string): Promise<T> {
    return this.request<T>("DELETE", path);
  }

  /**
   * Sends a bodiless request that outlives the page (`keepalive`), for a
   * page being left: no refresh or retry, and no error is thrown; resolves to
   * the response, or null when nothing could be sent.
   */
  async sendKeepalive(method: string, path: string): Promise<Response | null> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.accessToken) headers.Authorization = `Bearer ${this.accessToken}`;
    try {
      return await this.fetchFn(this.baseUrl + path, { method, keepalive: true, headers });
    } catch {
      return null;
    }
  }

  /** Sends one API request; throws ApiError for anything but a 2xx answer. */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    opts: { auth?: boolean; headers?: Record<string, string> } = {},
  ): Promise<T> {
    const auth = opts.auth ?? true;
    if (auth && !this.accessToken && this.hasStoredSession()) {
      await this.refresh();
    }
    let res = await this.send(method, path, body, auth, opts.headers);
    if (auth && res.status === 401) {
      const err = await errorFromResponse(res);
      if (err.code !== "token_expired" || !this.hasStoredSession()) {
        this.endSession();
        throw err;
      }
      await this.refresh();
      res = await this.send(method, path, body, auth, opts.headers);
      if (res.status === 401) {
        this.endSession();
        throw await errorFromResponse(res);
      }
    }
    if (!res.ok) throw await errorFromResponse(res);
    return (await readBody(res)) as T;
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
    // note: read inside the lock, so a token another tab just rotated is used.
    const refreshToken = this.storage.getItem(REFRESH_TOKEN_KEY);
    if (!refreshToken) {
      this.endSession();
      throw new ApiError(401, "unauthorized", "Your session has ended. Please sign in again.");
    }
    const res = await this.send("POST", "/api/v1/auth/refresh", { refresh_token: refreshToken }, false);
    if (!res.ok) {
      const err = await errorFromResponse(res);
      this.endSession();
      throw err;
    }
    const auth = (await readBody(res)) as AuthResponse;
    this.startSession(auth);
    return auth;
  }

  private startSession(auth: AuthResponse) {
    this.accessToken = auth.access_token;
    this.storage.setItem(REFRESH_TOKEN_KEY, auth.refresh_token);
    this.listeners.forEach((fn) => fn(auth.user));
  }

  private endSession() {
    const had = this.accessToken !== null || this.hasStoredSession();
    this.accessToken = null;
    this.storage.removeItem(REFRESH_TOKEN_KEY);
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
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (auth && this.accessToken) headers.Authorization = `Bearer ${this.accessToken}`;
    try {
      return await this.fetchFn(this.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, "network_error", "Could not reach the server. Check your connection and try again.");
    }
  }
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
