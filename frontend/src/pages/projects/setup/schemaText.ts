// A schema written or uploaded by the lead, as YAML or JSON text, read into
// the parts of a project setup: the schema, its extra forms, guidelines.
// Checking them is the server's job (POST /schemas/validate); this only reads
// the text and says where it cannot.
import { dump, load, YAMLException } from "js-yaml";
import type { Schema } from "../../../api";

export interface SchemaSetup {
  schema: Schema;
  forms?: Record<string, Schema>;
  guidelines?: string;
}

export type ParsedSchema = { ok: true; setup: SchemaSetup } | { ok: false; message: string; line?: number; column?: number };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * Reads YAML or JSON (JSON is YAML). The text is either a schema (with
 * `inputs` and `questions`) or a template-like document with `schema` and
 * optional `forms` (a map by key, or a list of `{key, schema}`) and
 * `guidelines`.
 */
export function parseSchemaText(text: string): ParsedSchema {
  if (!text.trim()) return { ok: false, message: "Paste or upload a schema." };
  let doc: unknown;
  try {
    doc = load(text, { json: true });
  } catch (err) {
    if (err instanceof YAMLException) {
      const at = err.mark ? { line: err.mark.line + 1, column: err.mark.column + 1 } : {};
      return { ok: false, message: err.reason || err.message, ...at };
    }
    return { ok: false, message: String(err) };
  }
  if (!isObject(doc)) return { ok: false, message: "The schema must be an object with inputs and questions." };
  if (!isObject(doc.schema)) return { ok: true, setup: { schema: doc as unknown as Schema } };
  const setup: SchemaSetup = { schema: doc.schema as unknown as Schema };
  const forms = formsOf(doc.forms);
  if (forms) setup.forms = forms;
  if (typeof doc.guidelines === "string") setup.guidelines = doc.guidelines;
  return { ok: true, setup };
}

function formsOf(v: unknown): Record<string, Schema> | undefined {
  if (Array.isArray(v)) {
    const out: Record<string, Schema> = {};
    for (const f of v) if (isObject(f) && typeof f.key === "string" && isObject(f.schema)) out[f.key] = f.schema as unknown as Schema;
    return Object.keys(out).length ? out : undefined;
  }
  return isObject(v) ? (v as Record<string, Schema>) : undefined;
}

/** Problems of a setup check that belong to the schema or its forms, in path order. */
export function schemaProblems(errors: Record<string, string>): { path: string; message: string }[] {
  return Object.entries(errors)
    .filter(([k]) => k === "schema" || k.startsWith("schema.") || k === "forms" || k.startsWith("forms."))
    .sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }))
    .map(([path, message]) => ({ path, message }));
}

/** A setup as YAML text for editing: the schema alone, or with its forms. */
export function schemaToText(schema: Schema, forms?: Record<string, Schema> | null): string {
  const doc = forms && Object.keys(forms).length ? { schema, forms } : schema;
  return dump(doc, { lineWidth: 120, noRefs: true });
}
