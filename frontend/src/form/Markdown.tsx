// Markdown for guidelines, question help and model outputs, on react-markdown
// (CommonMark) with rehype-sanitize. Raw HTML in the source is shown as text,
// never injected; links go only to web addresses and relative paths; images
// are shown as their alt text.
import type { Nodes, Root } from "hast";
import { memo, type ComponentProps, type ReactElement } from "react";
import markdownToReact, { type Components, type Options } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";

const BASE = "https://relative.invalid";

/**
 * The link target to keep, or null: http(s) URLs written with their scheme
 * and relative paths (`/docs`, `page.html`, `#part`). Anything that leaves the
 * page's origin without naming http(s) — another scheme, a protocol-relative
 * `//host`, or `/\host` that browsers read as one — is refused.
 */
export function safeHref(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href, `${BASE}/`);
  } catch {
    return null;
  }
  if (url.origin === BASE) return href;
  const web = url.protocol === "http:" || url.protocol === "https:";
  return web && /^https?:\/\//i.test(href) ? href : null;
}

const urlTransform = (url: string) => safeHref(url) ?? "";

/** Headings sit inside a card under the page's own titles: # is h3, capped at h6. */
const shifted = (level: number) => {
  const Tag = `h${Math.min(6, level + 2)}` as "h3";
  const Heading = ({ node: _node, ...props }: ComponentProps<"h1"> & { node?: unknown }) => <Tag {...props} />;
  return Heading;
};

const components: Components = {
  h1: shifted(1),
  h2: shifted(2),
  h3: shifted(3),
  h4: shifted(4),
  h5: shifted(5),
  h6: shifted(6),
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    ) : (
      <>{children}</>
    ),
  img: ({ alt }) => <>{alt}</>,
};

/** Raw HTML becomes text before the sanitizer would drop it: it is shown as written, never run. */
function rehypeHtmlAsText() {
  const walk = (node: Nodes) => {
    if (!("children" in node)) return;
    node.children = node.children.map((child) => (child.type === "raw" ? { type: "text", value: child.value } : (walk(child), child)));
  };
  return (tree: Root) => walk(tree);
}

const options: Omit<Options, "children"> = { rehypePlugins: [rehypeHtmlAsText, rehypeSanitize], urlTransform, components };

const rendered = new Map<string, ReactElement>();
const KEEP = 256;

/**
 * The React tree of a source, parsed once. note: every item of a project
 * shows the same question help, and parsing it for each of a form's cards on
 * every item would delay showing the next one; react-markdown's synchronous
 * renderer is a pure function of its options, so its output is kept (the
 * oldest dropped first).
 */
function markdownTree(source: string): ReactElement {
  const kept = rendered.get(source);
  if (kept) return kept;
  const tree = markdownToReact({ ...options, children: source });
  rendered.set(source, tree);
  if (rendered.size > KEEP) rendered.delete(rendered.keys().next().value as string);
  return tree;
}

/** Renders Markdown source safely. */
export const Markdown = memo(function Markdown({ source, className }: { source: string; className?: string }) {
  return <div className={className ? `md ${className}` : "md"}>{markdownTree(source ?? "")}</div>;
});
