import type { Schema } from "../../../api";
import type { PolicyDraft } from "../setup/policyFields";
import type { SetupRequest } from "../../../api/setup";
import { parseSchemaText, type ParsedSchema } from "../setup/schemaText";

/** Everything the lead chose before the project exists. */
export interface Draft {
  source: "template" | "custom";
  template: string;
  schemaText: string;
  name: string;
  description: string;
  guidelines: string;
  /** Whether the lead edited the guidelines (else they follow the chosen template or file). */
  guidelinesEdited: boolean;
  /** The policy as edited: unset fields get the server's defaults. */
  workflow: PolicyDraft;
  /** Whether the lead edited the policy (else it follows the chosen template's own). */
  workflowEdited: boolean;
  /** The template whose own policy the draft holds ("" for none). */
  workflowFrom: string;
}


export const emptyDraft = (template = ""): Draft => ({
  source: "template",
  template,
  schemaText: "",
  name: "",
  description: "",
  guidelines: "",
  guidelinesEdited: false,
  workflow: {},
  workflowEdited: false,
  workflowFrom: "",
});

/** The schema part of the setup request, or null when there is none to send yet. */
export function schemaPart(d: Draft, parsed: ParsedSchema | null): Pick<SetupRequest, "template" | "schema" | "forms"> | null {
  if (d.source === "template") return d.template ? { template: d.template } : null;
  if (!parsed || !parsed.ok) return null;
  // note: the generated request type gives each form the file's $defs; the forms are sent as read.
  const forms = parsed.setup.forms as SetupRequest["forms"];
  return forms ? { schema: parsed.setup.schema, forms } : { schema: parsed.setup.schema };
}

/** Reads the draft's custom schema text (null for templates). */
export function parseDraft(d: Draft): ParsedSchema | null {
  return d.source === "custom" ? parseSchemaText(d.schemaText) : null;
}

/** The schema and forms a policy is checked against: the template's or the uploaded ones. */
export interface SchemaContext {
  schema?: Schema | null;
  forms?: Record<string, Schema> | null;
}
