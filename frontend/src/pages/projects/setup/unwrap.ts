// Guidelines written in a text editor are wrapped at a fixed width; in the
// guidelines box (a textarea as wide as the page) those line breaks land in
// the middle of lines. Markdown renders the paragraphs the same either way.

const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s/;
const OWN_LINE = /^\s*(#|>|\||```|~~~)/;
const FENCE = /^\s*(```|~~~)/;
const INDENTED = /^( {4}|\t)/;
const HARD_BREAK = /( {2}|\\)$/;

/**
 * Joins the lines of each paragraph and list item into one line, keeping blank
 * lines (paragraph breaks), list items, headings, quotes, tables, fenced and
 * indented code and hard breaks (a line ending in two spaces or a backslash).
 */
export function unwrapParagraphs(text: string): string {
  const out: string[] = [];
  let fenced = false;
  let joinable = false; // the last line out is paragraph or list text that the next line may continue
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const fence = FENCE.test(line);
    if (fenced || fence || line.trim() === "" || OWN_LINE.test(line)) {
      if (fence) fenced = !fenced;
      out.push(line);
      joinable = false;
      continue;
    }
    if (joinable && !LIST_ITEM.test(line)) {
      out[out.length - 1] = `${out[out.length - 1].trimEnd()} ${line.trim()}`;
    } else {
      out.push(line);
      // note: an indented line that does not continue a paragraph or list item is code
      if (!LIST_ITEM.test(line) && INDENTED.test(line)) {
        joinable = false;
        continue;
      }
    }
    joinable = !HARD_BREAK.test(line);
  }
  return out.join("\n");
}
