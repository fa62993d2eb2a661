import { describe, expect, it } from "vitest";
import { unwrapParagraphs } from "./unwrap";

describe("unwrapParagraphs", () => {
  it("joins the lines of a paragraph and of a list item, keeping paragraph breaks and items", () => {
    const wrapped = [
      "Omni-RewardBench is built in two stages,",
      "one after the other.",
      "",
      "1. Criteria annotation: for each input, write several",
      "   short criteria.",
      "2. Preference annotation: choose the response",
      "   preferred under the criterion.",
      "- a bullet",
      "  continued",
      "",
      "Last paragraph.",
      "",
    ].join("\n");
    expect(unwrapParagraphs(wrapped)).toBe(
      [
        "Omni-RewardBench is built in two stages, one after the other.",
        "",
        "1. Criteria annotation: for each input, write several short criteria.",
        "2. Preference annotation: choose the response preferred under the criterion.",
        "- a bullet continued",
        "",
        "Last paragraph.",
        "",
      ].join("\n"),
    );
  });

  it("keeps headings, quotes, tables, code and hard breaks on their lines", () => {
    const text = [
      "# Title",
      "Text under it",
      "wrapped.",
      "> quoted",
      "> more",
      "| a | b |",
      "| - | - |",
      "```",
      "code line",
      "next code line",
      "```",
      "Ends with a break  ",
      "next line",
      "",
      "    indented code",
      "    more code",
    ].join("\n");
    expect(unwrapParagraphs(text)).toBe(
      [
        "# Title",
        "Text under it wrapped.",
        "> quoted",
        "> more",
        "| a | b |",
        "| - | - |",
        "```",
        "code line",
        "next code line",
        "```",
        "Ends with a break  ",
        "next line",
        "",
        "    indented code",
        "    more code",
      ].join("\n"),
    );
  });

  it("leaves unwrapped text as it is", () => {
    expect(unwrapParagraphs("One line.\n\nTwo lines? No, one.")).toBe("One line.\n\nTwo lines? No, one.");
  });
});
