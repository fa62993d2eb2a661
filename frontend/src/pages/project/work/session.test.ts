import { describe, expect, it } from "vitest";
import type { Claim } from "../../../api";
import { initialSession, sessionReducer, type SessionAction, type SessionState } from "./session";

const claim = (id: string) => ({ assignment: { id } }) as Claim;
const run = (...actions: SessionAction[]) => actions.reduce<SessionState>(sessionReducer, initialSession);

describe("sessionReducer", () => {
  it("reset(claim) shows the claim afresh: no problem, nothing held, the clock restarted", () => {
    const s = run(
      { type: "reset", claim: claim("a1"), at: 10 },
      { type: "ahead", held: 1 },
      { type: "refused", aid: "a1", error: new Error("lease lost") },
      { type: "reset", claim: claim("a2"), at: 99 },
    );
    expect(s.status).toBe("ready");
    expect(s.claim?.assignment.id).toBe("a2");
    expect(s.shownAt).toBe(99);
    expect(s.held).toBe(0);
    expect(s.problem).toBeNull();
    expect(s.settled).toBe(1);
  });

  it("settles at once on an empty queue and after each claim ahead", () => {
    expect(run({ type: "reset", claim: null, at: 1 })).toMatchObject({ status: "empty", settled: 1 });
    expect(run({ type: "reset", claim: claim("a1"), at: 1 }).settled).toBe(0);
    expect(run({ type: "reset", claim: claim("a1"), at: 1 }, { type: "ahead", held: 0 }).settled).toBe(1);
  });

  it("a new write clears the last refusal; giving back the claim ahead leaves nothing held", () => {
    const refused = run({ type: "reset", claim: claim("a1"), at: 1 }, { type: "ahead", held: 1 }, { type: "refused", aid: "a1", error: "x" });
    expect(sessionReducer(refused, { type: "sending" })).toMatchObject({ busy: true, problem: null });
    expect(sessionReducer(refused, { type: "released" }).held).toBe(0);
  });

  it("a failed claim shows the error and no item", () => {
    const s = run({ type: "reset", claim: claim("a1"), at: 1 }, { type: "loading" }, { type: "failed", error: "down" });
    expect(s).toMatchObject({ status: "error", claim: null, error: "down" });
  });
});

describe("the claim ahead", () => {
  it("is kept once settled, for its page to render hidden, and dropped when shown, given back or failed", () => {
    const ahead = run({ type: "reset", claim: claim("a1"), at: 1 }, { type: "ahead", held: 1, next: claim("a2") });
    expect(ahead.next?.assignment.id).toBe("a2");
    expect(sessionReducer(ahead, { type: "reset", claim: claim("a2"), at: 2 }).next).toBeNull();
    expect(sessionReducer(ahead, { type: "released" }).next).toBeNull();
    expect(sessionReducer(ahead, { type: "failed", error: "x" }).next).toBeNull();
  });
});
