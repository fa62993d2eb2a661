// Retrying writes through network hiccups: submits and draft saves are
// retried with backoff while the failure is the network's or the server's,
// never when the server has refused the request.
import { ApiError } from "../../../api";

/** Whether a failure may go away on its own (network, 5xx, 429). */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof ApiError)) return err instanceof TypeError;
  return err.code === "network_error" || err.status === 0 || err.status === 429 || err.status >= 500;
}

/** Backoff before attempt n (0-based): 0.5 s, 1 s, 2 s … capped at 15 s, with jitter. */
export function backoffMs(n: number, random = Math.random): number {
  const base = Math.min(15_000, 500 * 2 ** n);
  return Math.round(base * (0.75 + 0.5 * random()));
}

export interface RetryOptions {
  /** Told when the call starts failing (true) and when it goes through again (false). */
  onTrouble?: (failing: boolean) => void;
  /** Stops retrying; the last error is thrown. */
  signal?: AbortSignal;
  maxAttempts?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });

/** Runs fn until it succeeds or fails for a reason retrying cannot fix. */
export async function withRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const sleep = opts.sleep ?? defaultSleep;
  const max = opts.maxAttempts ?? Infinity;
  let failing = false;
  for (let n = 0; ; n++) {
    try {
      const v = await fn();
      if (failing) opts.onTrouble?.(false);
      return v;
    } catch (err) {
      if (!isRetryable(err) || n + 1 >= max || opts.signal?.aborted) {
        if (failing) opts.onTrouble?.(false);
        throw err;
      }
      if (!failing) {
        failing = true;
        opts.onTrouble?.(true);
      }
      await sleep(backoffMs(n), opts.signal);
    }
  }
}

/** A fresh idempotency key for one submit (reused by its retries). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
