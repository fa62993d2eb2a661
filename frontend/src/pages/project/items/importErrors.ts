// The refused lines of an import as rows a lead can act on: the line, the
// field at fault, the server's problem and a hint at the fix.
import type { ImportLineError } from "../../../api/workflowTypes";

/** One problem of one refused line. */
export type ErrorRow = { line: number; field: string; problem: string; code?: string; hint: string };

type FieldProblem = { code?: string; message?: string };

/** One row per field error of each refused line; a line refused as a whole is one row. */
export function errorRows(errors: ImportLineError[]): ErrorRow[] {
  const rows: ErrorRow[] = [];
  for (const e of errors) {
    const details = fieldProblems(e.details);
    if (details.length === 0) {
      const field = lineField(e.error);
      rows.push({ line: e.line, field, problem: e.error, hint: lineHint(e.error) });
      continue;
    }
    for (const [field, p] of details) {
      rows.push({ line: e.line, field, problem: p.message || e.error, code: p.code, hint: fieldHint(field, p.code) });
    }
  }
  return rows;
}

function fieldProblems(details: unknown): [string, FieldProblem][] {
  if (!details || typeof details !== "object") return [];
  return Object.entries(details as Record<string, FieldProblem>)
    .filter(([, v]) => v && typeof v === "object")
    .sort(([a], [b]) => a.localeCompare(b));
}

/** The field a problem of the whole line is about, when its text names one. */
function lineField(error: string): string {
  if (/external_id/.test(error)) return "external_id";
  const m = /^(ground_truth\.[a-z_]+)/.exec(error);
  return m ? m[1] : "";
}

function lineHint(error: string): string {
  if (error.startsWith("malformed JSON")) return "Write each line as one complete JSON object (no trailing commas, quotes around keys).";
  if (error.startsWith("no item with external_id")) return "Import the item first (Items tab), or correct its external_id.";
  if (error.includes("external_id is required")) return "Give the line an external_id: your own id of the item, unique in the project.";
  if (error.includes("repeats line")) return "Give each line of the file its own external_id.";
  if (error.includes("is an item of the calibration pool") || error.includes("is a production item"))
    return "An item stays where it was first imported; use a new external_id for the other pool.";
  if (error.includes("already being annotated")) return "Import the changed item under a new external_id.";
  if (error.includes("ground_truth.provenance")) return 'Production ground truth needs "provenance": "rule" or "constructed".';
  if (error.includes("longer than")) return "Split the item or shorten its inputs.";
  return "";
}

function fieldHint(field: string, code?: string): string {
  const input = field.startsWith("inputs.");
  const answer = field.startsWith("ground_truth.answers.");
  switch (code) {
    case "unknown_field":
      return field === "pool"
        ? "Remove it: choose the calibration pool on the import form for the whole file."
        : "Remove the key or correct its spelling; the problem lists the fields allowed there.";
    case "unknown_input":
      return "Remove it or correct its name; the inputs are listed under Import format.";
    case "required":
      if (input) return `Add "${field.slice("inputs.".length)}" to the line's inputs.`;
      if (field.startsWith("meta.")) return `Add "${field.slice("meta.".length)}" to the line's meta.`;
      return answer ? "Answer the question, or leave it out of a calibration pool's gold answer." : "Add the field.";
    case "invalid_type":
      return input ? "Give a value of the input's type (see Import format)." : "Give a value of the expected type.";
    case "unknown_asset":
      return "Upload the file to this project, or give a URL or the file in a media archive.";
    case "missing_media":
      return "Add the file to the media archive, or correct its path.";
    case "wrong_media":
      return "Give a file of the input's medium.";
    case "invalid_language":
      return "Use a BCP 47 tag that is one of the project's languages.";
    case "invalid_text":
      return "Remove control characters from the text.";
  }
  if (answer) return "Answer as in the example's ground_truth.answers (see Import format).";
  if (field.startsWith("ground_truth")) return 'The gold answer has one field, "answers".';
  return "";
}
