import { describe, expect, it } from "vitest";
import { queryString, routeUrl } from "./paths";

describe("routeUrl", () => {
  it("puts the prefix in front and escapes each parameter", () => {
    expect(routeUrl("/projects/{pid}/members/{uid}", { path: { pid: "p/1", uid: "ü 2" } })).toBe("/api/v1/projects/p%2F1/members/%C3%BC%202");
    expect(routeUrl("/me")).toBe("/api/v1/me");
  });

  it("adds the query string", () => {
    expect(routeUrl("/projects/{pid}/agreement", { path: { pid: "p1" }, query: { stage: "label" } })).toBe("/api/v1/projects/p1/agreement?stage=label");
  });

  it("throws for a parameter the call leaves out", () => {
    expect(() => routeUrl("/projects/{pid}", {})).toThrow("{pid}");
  });
});

describe("queryString", () => {
  it("leaves out unset values, keeps false, 0 and an empty text, and repeats a list's key", () => {
    expect(queryString({ a: undefined, b: null, c: false, d: 0, e: "", f: ["x", "y z"] })).toBe("?c=false&d=0&e=&f=x&f=y+z");
  });

  it("is empty when nothing is set", () => {
    expect(queryString({})).toBe("");
    expect(queryString(undefined)).toBe("");
  });
});
