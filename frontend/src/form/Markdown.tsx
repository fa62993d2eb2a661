// A small Markdown renderer that builds React elements directly, so raw HTML
// in the source is shown as text and can never be injected. It covers what
// guidelines and model outputs use: headings, paragraphs, lists, quotes,
// code, emphasis and links.
import type { ReactNode } from "react";

type Block =
  | { t: "h"; level: number; text: string }
  | { t: "p"; text: string }
  | { t: "ul" | "ol"; items: string[] }
  | { t: "quote"; text: string }
  | { t: "code"; text: string };

const LIST = /^\s*([-*+]|\d+[.)])\s+(.*)$/;

/** Splits Markdown source into blocks. */
export function parseBlocks(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  const out: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push({ t: "p", text: para.join(" ") });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      out.push({ t: "code", text: code.join("\n") });
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    const li = LIST.exec(line);
    if (!line.trim()) flush();
    else if (h) {
      flush();
      out.push({ t: "h", level: h[1].length, text: h[2] });
    } else if (li) {
      flush();
      const t = /\d/.test(li[1]) ? "ol" : "ul";
      const last = out[out.length - 1];
      if (last && last.t === t) last.items.push(li[2]);
      else out.push({ t, items: [li[2]] });
    } else if (/^\s*>/.test(line)) {
      flush();
      const last = out[out.length - 1];
      const text = line.replace(/^\s*>\s?/, "");
      if (last && last.t === "quote") last.text += " " + text;
      else out.push({ t: "quote", text });
    } else {
      const last = out[out.length - 1];
      // A lazy continuation line of a list item.
      if (!para.length && last && (last.t === "ul" || last.t === "ol") && /^\s+/.test(line)) {
        last.items[last.items.length - 1] += " " + line.trim();
      } else para.push(line.trim());
    }
  }
  flush();
  return out;
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/;

/** Only web and relative links are followed; anything else is plain text. */
export function safeHref(href: string): string | null {
  return /^(https?:\/\/|\/|#|mailto:)/i.test(href) ? href : null;
}

/** Renders inline Markdown (code, bold, italic, links) as React nodes. */
export function renderInline(text: string, keyPrefix = "i"): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  let n = 0;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const tok = m[0];
    const key = `${keyPrefix}-${n++}`;
    if (m[1]) out.push(<code key={key}>{tok.slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong key={key}>{renderInline(tok.slice(2, -2), key)}</strong>);
    else if (m[3]) out.push(<em key={key}>{renderInline(tok.slice(1, -1), key)}</em>);
    else {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(tok)!;
      const safe = safeHref(href);
      out.push(
        safe ? (
          <a key={key} href={safe} target="_blank" rel="noreferrer noopener">
            {label}
          </a>
        ) : (
          label
        ),
      );
    }
    rest = rest.slice(m.index + tok.length);
  }
  return out;
}

/** Renders Markdown source safely. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const blocks = parseBlocks(source ?? "");
  return (
    <div className={className ? `md ${className}` : "md"}>
      {blocks.map((b, i) => {
        const k = `b${i}`;
        switch (b.t) {
          case "h": {
            const H = `h${Math.min(6, b.level + 2)}` as "h3";
            return <H key={k}>{renderInline(b.text, k)}</H>;
          }
          case "p":
            return <p key={k}>{renderInline(b.text, k)}</p>;
          case "quote":
            return <blockquote key={k}>{renderInline(b.text, k)}</blockquote>;
          case "code":
            return (
              <pre key={k}>
                <code>{b.text}</code>
              </pre>
            );
          default: {
            const L = b.t;
            return (
              <L key={k}>
                {b.items.map((it, j) => (
                  <li key={j}>{renderInline(it, `${k}-${j}`)}</li>
                ))}
              </L>
            );
          }
        }
      })}
    </div>
  );
}
