import { describe, expect, it } from "vitest";
import { unitName } from "./unitName";

describe("unitName", () => {
  it("names a criterion's unit by its item and the criterion", () => {
    const ext = "or-t2i-001#criterion-01a23bcb-4e8c-78d7-9758-d13df45e8c9e";
    expect(unitName(ext)).toBe("or-t2i-001 · criterion 8c9e");
    expect(unitName(ext, 2)).toBe("or-t2i-001 · criterion 2");
  });

  it("leaves other ids as they are", () => {
    expect(unitName("or-t2i-001")).toBe("or-t2i-001");
    expect(unitName("a#b")).toBe("a#b");
    expect(unitName("")).toBe("");
  });
});
