import { describe, expect, it } from "vitest";
import { ApiError } from "../../../api";
import { backoffMs, isRetryable, keepTrying } from "./retry";

describe("keepTrying", () => {
  it("retries network failures, 5xx and 429 without end", () => {
    for (const err of [new ApiError(0, "network_error", "offline"), new ApiError(503, "unavailable", "busy"), new ApiError(429, "rate_limited", "slow down"), new TypeError("Failed to fetch")]) {
      expect(isRetryable(err)).toBe(true);
      expect(keepTrying.retry(1, err)).toBe(true);
      expect(keepTrying.retry(50, err)).toBe(true);
    }
  });

  it("never retries a refusal", () => {
    for (const err of [
      new ApiError(409, "lease_lost", "gone"),
      new ApiError(409, "stale_version", "stale"),
      new ApiError(422, "validation_failed", "invalid"),
      new ApiError(404, "not_found", "missing"),
      new Error("a bug"),
    ]) {
      expect(keepTrying.retry(0, err)).toBe(false);
    }
  });

  it("backs off from half a second, doubling up to 15 s, with jitter", () => {
    expect(backoffMs(0, () => 0.5)).toBe(500);
    expect(backoffMs(1, () => 0.5)).toBe(1000);
    expect(backoffMs(3, () => 0.5)).toBe(4000);
    expect(backoffMs(20, () => 0.5)).toBe(15_000);
    expect(backoffMs(0, () => 0)).toBe(375);
    expect(backoffMs(0, () => 1)).toBe(625);
    // TanStack passes the failures so far minus one: the first retry waits about half a second.
    const first = keepTrying.retryDelay(0);
    expect(first).toBeGreaterThanOrEqual(375);
    expect(first).toBeLessThanOrEqual(625);
  });
});
