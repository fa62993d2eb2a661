// When a write on an assignment is tried again: claims, draft saves, submits,
// skips and flags go through TanStack Query mutations with these options, so
// a network hiccup or a busy server delays them and never loses them, while a
// refusal (409, 422, …) is answered at once.
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

/**
 * Mutation options for writes that must not be lost: retried for as long as
 * the failure is the network's or the server's, with backoff; never retried
 * once the server refused.
 */
export const keepTrying = {
  retry: (_failures: number, err: unknown) => isRetryable(err),
  // note: TanStack passes the failures so far minus one (0 before the first retry).
  retryDelay: (failureCount: number) => backoffMs(failureCount),
} as const;

/** A fresh idempotency key for one submit (reused by its retries). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
