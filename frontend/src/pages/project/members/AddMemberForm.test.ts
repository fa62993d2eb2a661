import { describe, expect, it } from "vitest";
import { resolveUserId } from "./AddMemberForm";

const users = [
  { id: "u1", email: "admin@example.com", name: "Ada", is_admin: true },
  { id: "u2", email: "Ann@Example.com", name: "Ann", is_admin: false },
];
const members = [{ user_id: "u9", email: "lead@example.com", name: "Lee", roles: ["lead" as const] }];

describe("resolveUserId", () => {
  it("uses what was typed as the id when it is not an email", () => {
    expect(resolveUserId(" 42 ", undefined, [])).toBe("42");
  });
  it("finds users by email regardless of case", () => {
    expect(resolveUserId("ann@example.COM", users, members)).toBe("u2");
  });
  it("finds current members without the user directory", () => {
    expect(resolveUserId("lead@example.com", undefined, members)).toBe("u9");
  });
  it("says when no user has the email", () => {
    expect(() => resolveUserId("who@example.com", users, members)).toThrow("No user has the email who@example.com.");
  });
  it("asks for an id when the directory cannot be read", () => {
    expect(() => resolveUserId("who@example.com", undefined, members)).toThrow(/enter the user's id/);
  });
});
