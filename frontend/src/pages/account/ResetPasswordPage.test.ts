import { describe, expect, it } from "vitest";
import { resetToken } from "./ResetPasswordPage";

describe("resetToken", () => {
  it("reads the token from the fragment only", () => {
    expect(resetToken("#token=arb_reset_abc-123")).toBe("arb_reset_abc-123");
    expect(resetToken("")).toBe("");
    expect(resetToken("#other=1")).toBe("");
  });
});
