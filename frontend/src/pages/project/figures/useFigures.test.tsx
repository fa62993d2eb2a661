import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderHook, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { COMPUTING_POLL_MS, useFigures, type Computed } from "./useFigures";

function wrapper() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("useFigures", () => {
  it("asks again every COMPUTING_POLL_MS while the server computes, and stops once the figures are ready", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers: (Computed & { n: number })[] = [
      { status: "computing", n: 1 },
      { status: "computing", n: 2 },
      { status: "ready", n: 3 },
    ];
    const fetch = vi.fn(async () => answers[Math.min(fetch.mock.calls.length - 1, answers.length - 1)]);
    const { result } = renderHook(() => useFigures(["figures", "test"], fetch), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.data?.n).toBe(1));
    await vi.advanceTimersByTimeAsync(COMPUTING_POLL_MS);
    await waitFor(() => expect(result.current.data?.n).toBe(2));
    await vi.advanceTimersByTimeAsync(COMPUTING_POLL_MS);
    await waitFor(() => expect(result.current.data?.n).toBe(3));
    await vi.advanceTimersByTimeAsync(COMPUTING_POLL_MS * 5);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("keeps the figures on screen while other ones load, when asked to", async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const fetch = vi.fn(async (key: string) => {
      if (key === "b") await slow;
      return { status: "ready" as const, key };
    });
    const { result, rerender } = renderHook(({ k }) => useFigures(["figures", k], () => fetch(k), { keepPrevious: true }), {
      wrapper: wrapper(),
      initialProps: { k: "a" },
    });
    await waitFor(() => expect(result.current.data?.key).toBe("a"));
    rerender({ k: "b" });
    expect(result.current.data?.key).toBe("a");
    expect(result.current.isPlaceholderData).toBe(true);
    release();
    await waitFor(() => expect(result.current.data?.key).toBe("b"));
  });
});
