import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../api";
import { DEBOUNCE_MS, DraftSaver, type DraftWrite, type SaveState } from "./draftSaver";
import { readLocalDraft } from "./draftStore";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function saver(answer: (w: DraftWrite) => Promise<{ version: number }>) {
  const sent: DraftWrite[] = [];
  const states: SaveState[] = [];
  const s = new DraftSaver("a1", 0, (w) => (sent.push(w), answer(w)), (st) => states.push(st));
  return { s, sent, states };
}

describe("DraftSaver", () => {
  it("keeps every change in this browser at once and sends the latest after a quiet second", async () => {
    const { s, sent, states } = saver(async (w) => ({ version: w.version + 1 }));
    s.change({ ok: "yes" });
    s.change({ ok: "no" });
    expect(readLocalDraft("a1")).toMatchObject({ answers: { ok: "no" }, saved: false });
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(sent.map((w) => [w.answers, w.version])).toEqual([[{ ok: "no" }, 0]]);
    expect(readLocalDraft("a1")).toMatchObject({ answers: { ok: "no" }, saved: true });
    expect(states.at(-1)).toBe("saved");
  });

  it("adopts the server's version after stale_version and saves again", async () => {
    let first = true;
    const { s, sent, states } = saver(async (w) => {
      if (first) {
        first = false;
        throw new ApiError(409, "stale_version", "saved elsewhere", { current_version: 7 });
      }
      return { version: w.version + 1 };
    });
    s.change({ ok: "yes" });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS + 10);
    expect(sent.map((w) => w.version)).toEqual([0, 7]);
    expect(states.at(-1)).toBe("saved");
  });

  it("stops for good when the server refuses the draft (the item is no longer this person's)", async () => {
    const { s, sent, states } = saver(async () => {
      throw new ApiError(409, "lease_lost", "gone");
    });
    s.change({ ok: "yes" });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(states.at(-1)).toBe("lost");
    s.change({ ok: "no" });
    await vi.advanceTimersByTimeAsync(5 * DEBOUNCE_MS);
    expect(sent).toHaveLength(1);
  });

  it("sends nothing once stopped for a submit, and tells a save being retried to end", async () => {
    const { s, sent } = saver(async (w) => ({ version: w.version + 1 }));
    s.change({ ok: "yes" });
    s.stop();
    await vi.advanceTimersByTimeAsync(5 * DEBOUNCE_MS);
    expect(sent).toEqual([]);
    s.resume();
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(sent).toHaveLength(1);
    expect(sent[0].stopped()).toBe(false);
    s.stop();
    expect(sent[0].stopped()).toBe(true);
  });
});
