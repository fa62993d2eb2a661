import { describe, expect, it } from "vitest";
import { render } from "@testing-library/react";
import { Markdown, parseBlocks, safeHref } from "./Markdown";

describe("Markdown", () => {
  it("renders headings, lists, emphasis, code and links", () => {
    const { container } = render(
      <Markdown source={"# Title\n\nSome **bold** and *soft* `code`.\n\n- one\n- two\n\n1. first\n\n[docs](https://example.com)"} />,
    );
    expect(container.querySelector("h3")?.textContent).toBe("Title");
    expect(container.querySelector("strong")?.textContent).toBe("bold");
    expect(container.querySelector("em")?.textContent).toBe("soft");
    expect(container.querySelector("code")?.textContent).toBe("code");
    expect(container.querySelectorAll("ul li")).toHaveLength(2);
    expect(container.querySelectorAll("ol li")).toHaveLength(1);
    expect(container.querySelector("a")?.getAttribute("href")).toBe("https://example.com");
  });

  it("never injects raw HTML or unsafe links", () => {
    const { container } = render(
      <Markdown source={'<img src=x onerror="alert(1)"> <script>alert(1)</script> [x](javascript:alert(1))'} />,
    );
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("a")).toBeNull();
    expect(container.textContent).toContain("<script>");
    expect(safeHref("javascript:alert(1)")).toBeNull();
  });

  it("keeps fenced code verbatim", () => {
    expect(parseBlocks("```\n**not bold**\n```")).toEqual([{ t: "code", text: "**not bold**" }]);
  });
});
