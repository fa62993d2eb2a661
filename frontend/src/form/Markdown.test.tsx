import { describe, expect, it } from "vitest";
import { render } from "@testing-library/react";
import { Markdown, safeHref } from "./Markdown";

const html = (source: string) => render(<Markdown source={source} />).container;

describe("Markdown", () => {
  it("renders headings one level under the page's, lists, emphasis, code and links", () => {
    const c = html("# Title\n\n## Part\n\nSome **bold** and *soft* `code`.\n\n- one\n- two\n\n1. first\n\n[docs](https://example.com)");
    expect(c.querySelector("h3")?.textContent).toBe("Title");
    expect(c.querySelector("h4")?.textContent).toBe("Part");
    expect(c.querySelector("h1, h2")).toBeNull();
    expect(c.querySelector("strong")?.textContent).toBe("bold");
    expect(c.querySelector("em")?.textContent).toBe("soft");
    expect(c.querySelector("p code")?.textContent).toBe("code");
    expect(c.querySelectorAll("ul li")).toHaveLength(2);
    expect(c.querySelectorAll("ol li")).toHaveLength(1);
    const a = c.querySelector("a")!;
    expect(a.getAttribute("href")).toBe("https://example.com");
    expect(a.getAttribute("target")).toBe("_blank");
    expect(a.getAttribute("rel")).toBe("noreferrer noopener");
  });

  it("renders what the templates' guidelines use: numbered steps with wrapped lines and bold labels", () => {
    const c = html(
      "Two stages:\n\n1. Criteria annotation (the \"criteria\" form): for each input, write several short\n   criteria.\n2. Preference annotation (the main form): choose the better response.\n\n**Overall Quality** provides a holistic assessment.",
    );
    const steps = c.querySelectorAll("ol > li");
    expect(steps).toHaveLength(2);
    expect(steps[0].textContent).toMatch(/write several short\s+criteria\.$/);
    expect(c.querySelector("strong")?.textContent).toBe("Overall Quality");
  });

  it("shows raw HTML as text and never injects it", () => {
    const c = html('<img src=x onerror="alert(1)"> <script>alert(1)</script>\n\n<b onclick="x()">bold?</b>');
    expect(c.querySelector("img, script, b, [onerror], [onclick]")).toBeNull();
    expect(c.textContent).toContain("<script>alert(1)</script>");
    expect(c.textContent).toContain('<b onclick="x()">bold?</b>');
  });

  it("refuses links that are not http(s) or relative, protocol-relative ones included, and keeps their text", () => {
    const c = html("[js](javascript:alert(1)) [host](//evil.example/x) [mail](mailto:a@b.c) [data](data:text/html,hi)");
    expect(c.querySelectorAll("a")).toHaveLength(0);
    expect(c.textContent).toBe("js host mail data");
  });

  it("keeps relative links and anchors", () => {
    const c = html("[guide](/docs/guide) [next](page.html) [part](#part) [plain](http://example.com/a?b=1)");
    expect([...c.querySelectorAll("a")].map((a) => a.getAttribute("href"))).toEqual(["/docs/guide", "page.html", "#part", "http://example.com/a?b=1"]);
  });

  it("shows an image as its alt text, loading nothing", () => {
    const c = html("See ![a chart](https://example.com/track.png) here.");
    expect(c.querySelector("img")).toBeNull();
    expect(c.textContent).toBe("See a chart here.");
  });

  it("keeps fenced code verbatim", () => {
    const c = html("```\n**not bold** <i>x</i>\n```");
    expect(c.querySelector("pre code")?.textContent).toBe("**not bold** <i>x</i>\n");
    expect(c.querySelector("strong, i")).toBeNull();
  });
});

describe("safeHref", () => {
  it.each([
    ["https://example.com/a", "https://example.com/a"],
    ["HTTP://example.com", "HTTP://example.com"],
    ["/docs", "/docs"],
    ["docs/page", "docs/page"],
    ["#part", "#part"],
    ["?q=1", "?q=1"],
  ])("keeps %s", (href, want) => expect(safeHref(href)).toBe(want));

  it.each(["//evil.example", "///evil.example", "/\\evil.example", "\\\\evil.example", "/\t/evil.example", "javascript:alert(1)", "JaVaScRiPt:alert(1)", "mailto:a@b.c", "data:text/html,x", "http:evil.example", "ftp://example.com"])(
    "refuses %s",
    (href) => expect(safeHref(href)).toBeNull(),
  );
});
