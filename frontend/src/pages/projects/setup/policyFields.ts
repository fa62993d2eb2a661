// The workflow policy as a list of fields, one entry each: the form renders
// whatever is listed here, so a new policy field (a qualification rule, a gold
// rate) is one more entry. Rules stay on the server: the form sends the policy
// to POST /schemas/validate or PATCH and shows the problems at their paths.
import type { Schema, WorkflowPolicy } from "../../../api";

/**
 * A policy being edited: any field may be unset and gets the server's default.
 * note: the generated types mark fields with a default as required, so the
 * request is typed as the full policy by asRequestPolicy.
 */
export type PolicyDraft = Partial<Omit<WorkflowPolicy, "consensus">> & { consensus?: Partial<NonNullable<WorkflowPolicy["consensus"]>> };

/** The draft as the request type; the server fills what is unset. */
export const asRequestPolicy = (p: PolicyDraft) => p as WorkflowPolicy;

/** What a policy field may need to offer its choices: the schema and its extra forms. */
export interface PolicyContext {
  schema?: Schema | null;
  forms?: Record<string, Schema> | null;
}

export interface Choice {
  value: string;
  label: string;
}

interface Base {
  /** Dotted path in the policy, e.g. "consensus.nominal"; server errors come as "workflow.<path>". */
  path: string;
  label: string;
  /** One line saying what the field does. */
  help: string;
  /** Shown only when this holds for the policy (and context). */
  when?: (p: PolicyDraft, ctx: PolicyContext) => boolean;
}

export type PolicyField =
  | (Base & { kind: "integer"; default: number; min: number; max: number; unit?: string })
  | (Base & { kind: "percent"; default: number })
  | (Base & { kind: "boolean"; default: boolean })
  | (Base & { kind: "select"; default: string; choices: Choice[] | ((ctx: PolicyContext, p: PolicyDraft) => Choice[]) })
  | (Base & { kind: "text"; default: string })
  /** A list of short words (language tags), typed as "en, zh"; empty leaves the key out. */
  | (Base & { kind: "list"; default: string[]; placeholder?: string })
  /** An optional part of the policy: off (absent) or on with the value `enable` gives. */
  | (Base & { kind: "section"; enable: (ctx: PolicyContext) => object; available?: (ctx: PolicyContext) => boolean });

export interface PolicyGroup {
  title: string;
  fields: PolicyField[];
}

const adjudicates = (p: PolicyDraft) => (p.adjudication ?? "on_disagreement") !== "never";

/** Forms of the project that hold a criteria question, with those questions. */
function criteriaForms(ctx: PolicyContext): { key: string; questions: string[] }[] {
  return Object.entries(ctx.forms ?? {})
    .map(([key, s]) => ({ key, questions: (s.questions ?? []).filter((q) => q.kind === "criteria").map((q) => q.key) }))
    .filter((f) => f.questions.length > 0);
}

/** Forms of the project that hold list_edit questions: the forms a checklist can be refined with. */
function checklistForms(ctx: PolicyContext): string[] {
  return Object.entries(ctx.forms ?? {})
    .filter(([, s]) => (s.questions ?? []).some((q) => q.kind === "list_edit"))
    .map(([key]) => key);
}

const textInputs = (ctx: PolicyContext) => (ctx.schema?.inputs ?? []).filter((i) => i.type === "text" || i.type === "markdown").map((i) => i.name);

export const POLICY_GROUPS: PolicyGroup[] = [
  {
    title: "Labels",
    fields: [
      { path: "overlap", kind: "integer", label: "Labels per item", default: 1, min: 1, max: 50, help: "How many different annotators label each item independently." },
      { path: "lease_minutes", kind: "integer", label: "Lease", unit: "minutes", default: 30, min: 1, max: 1440, help: "How long a claimed item stays with one person before it returns to the queue." },
      {
        path: "languages",
        kind: "list",
        label: "Languages",
        default: [],
        placeholder: "e.g. en, zh (empty: any)",
        help: "BCP 47 tags; every imported item must be in one of them. Who reads which language is set on the Members tab.",
      },
    ],
  },
  {
    title: "Review",
    fields: [
      {
        path: "review",
        kind: "select",
        label: "Review",
        default: "none",
        choices: [
          { value: "none", label: "No review" },
          { value: "cross", label: "Cross review" },
        ],
        help: "Cross review: every label is checked (approved, corrected or rejected) by someone who did not make it.",
      },
      { path: "blind_review", kind: "boolean", label: "Blind review", default: false, when: (p) => p.review === "cross", help: "Reviewers give their own answers before they see the label they review." },
    ],
  },
  {
    title: "Agreement and adjudication",
    fields: [
      {
        path: "aggregation.default",
        kind: "select",
        label: "Aggregation",
        default: "consensus",
        choices: [
          { value: "consensus", label: "Consensus: one agreed answer, else adjudicate or drop" },
          { value: "mean", label: "Mean of every evaluation (scores; nothing dropped)" },
          { value: "median", label: "Median of every evaluation (scores; nothing dropped)" },
          { value: "all", label: "No aggregation: every evaluation is a record" },
        ],
        help: "How each question's evaluations become its released value; the rule is released with every value.",
      },
      {
        path: "consensus.nominal",
        kind: "select",
        label: "Consensus",
        default: "unanimous",
        choices: [
          { value: "unanimous", label: "Unanimous" },
          { value: "majority", label: "Majority (more than half)" },
        ],
        help: "When yes/no and choice answers of the labels count as agreeing.",
      },
      { path: "consensus.ordinal_tolerance", kind: "integer", label: "Scale tolerance", unit: "points", default: 0, min: 0, max: 100, help: "Scale answers this many points apart still agree (0: only equal answers)." },
      {
        path: "adjudication",
        kind: "select",
        label: "Adjudication",
        default: "on_disagreement",
        choices: [
          { value: "never", label: "Never" },
          { value: "on_disagreement", label: "When labels disagree" },
          { value: "always", label: "Always" },
        ],
        help: "When an adjudicator, who did not label or review the item, sets its final answers.",
      },
      {
        path: "on_no_consensus",
        kind: "select",
        label: "Without consensus",
        default: "adjudicate",
        when: (p) => p.adjudication === "never",
        choices: [
          { value: "adjudicate", label: "Send to adjudication" },
          { value: "drop", label: "Drop the item" },
        ],
        help: "What happens to an item whose labels disagree: adjudicated anyway, or dropped with the disagreement as the reason.",
      },
      { path: "show_annotator_names", kind: "boolean", label: "Show annotator names", default: false, when: adjudicates, help: "Adjudicators see who gave which label (leads always do)." },
    ],
  },
  {
    title: "Optional stages",
    fields: [
      {
        path: "criteria_stage",
        kind: "section",
        label: "Criteria stage",
        help: "Annotators first write criteria for each item; every accepted criterion becomes its own unit to label.",
        available: (ctx) => criteriaForms(ctx).length > 0 && textInputs(ctx).length > 0,
        enable: (ctx) => {
          const f = criteriaForms(ctx)[0];
          return { form: f?.key ?? "", question: f?.questions[0] ?? "", input: textInputs(ctx).at(-1) ?? "" };
        },
      },
      {
        path: "criteria_stage.form",
        kind: "select",
        label: "Criteria form",
        default: "",
        when: (p) => !!p.criteria_stage,
        choices: (ctx) => criteriaForms(ctx).map((f) => ({ value: f.key, label: f.key })),
        help: "The form annotators write criteria with.",
      },
      {
        path: "criteria_stage.question",
        kind: "select",
        label: "Criteria question",
        default: "",
        when: (p) => !!p.criteria_stage,
        choices: (ctx, p) => (criteriaForms(ctx).find((f) => f.key === p.criteria_stage?.form)?.questions ?? []).map((q) => ({ value: q, label: q })),
        help: "The question of that form that holds the criteria.",
      },
      {
        path: "criteria_stage.input",
        kind: "select",
        label: "Criterion input",
        default: "",
        when: (p) => !!p.criteria_stage,
        choices: (ctx) => textInputs(ctx).map((n) => ({ value: n, label: n })),
        help: "The item input that shows each criterion when it is labeled.",
      },
      {
        path: "criteria_stage.overlap",
        kind: "integer",
        label: "Criteria authors per item",
        default: 1,
        min: 1,
        max: 50,
        when: (p) => !!p.criteria_stage,
        help: "How many different annotators write criteria for each item (Omni-Reward: every annotator).",
      },
      {
        path: "criteria_stage.authors_label",
        kind: "boolean",
        label: "Authors label their own criteria",
        default: false,
        when: (p) => !!p.criteria_stage,
        help: "The author of a criterion may label the unit made from it, as when the same people write the criteria and label (Omni-Reward). Off, each unit needs one annotator more than its labels.",
      },
      {
        path: "checklist_stage",
        kind: "section",
        label: "Checklist stage",
        help: "One annotator first refines each item's drafted checklist (keeps, drops, rewords, adds entries); the item is then labeled with the refined checklist. The refiner does not label that item, so each item needs one annotator more than its labels. Not combined with the criteria stage.",
        available: (ctx) => checklistForms(ctx).length > 0,
        enable: (ctx) => ({ form: checklistForms(ctx)[0] ?? "" }),
      },
      {
        path: "checklist_stage.form",
        kind: "select",
        label: "Checklist form",
        default: "",
        when: (p) => !!p.checklist_stage,
        choices: (ctx) => checklistForms(ctx).map((f) => ({ value: f, label: f })),
        help: "The form whose list edits refine the checklist.",
      },
      {
        path: "draft_from_predictions",
        kind: "section",
        label: "Drafts from predictions",
        help: "New labels start from imported model predictions; annotators confirm or change each answer.",
        enable: () => ({ method: "majority" }),
      },
      {
        path: "draft_from_predictions.method",
        kind: "select",
        label: "Draft method",
        default: "majority",
        when: (p) => !!p.draft_from_predictions,
        choices: [
          { value: "majority", label: "Majority of the models" },
          { value: "mean", label: "Mean (scales, rounded)" },
          { value: "model", label: "One model" },
        ],
        help: "How the predictions of several models combine into one draft.",
      },
      { path: "draft_from_predictions.model", kind: "text", label: "Model", default: "", when: (p) => p.draft_from_predictions?.method === "model", help: "The model whose predictions are the draft, as named in the predictions file." },
      {
        path: "draft_from_predictions.rounding",
        kind: "select",
        label: "Rounding",
        default: "half_up",
        when: (p) => p.draft_from_predictions?.method === "mean",
        choices: [
          { value: "half_up", label: "Half up" },
          { value: "floor", label: "Down" },
          { value: "ceil", label: "Up" },
        ],
        help: "How a mean between two scale points becomes one.",
      },
      { path: "spot_check_rate", kind: "percent", label: "Spot checks", default: 0, help: "Share of items imported with ground truth that still go to blind labeling; a mismatch flags the item." },
    ],
  },
];

/** Every field, in order. */
export const POLICY_FIELDS: PolicyField[] = POLICY_GROUPS.flatMap((g) => g.fields);

/** The value at a dotted path, or undefined. */
export function getPath(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const k of path.split(".")) {
    if (!v || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** A copy of obj with the dotted path set (undefined removes the key). */
export function setPath<T extends object>(obj: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split(".");
  const copy: Record<string, unknown> = { ...(obj as Record<string, unknown>) };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
  } else {
    const inner = copy[head] && typeof copy[head] === "object" ? (copy[head] as object) : {};
    copy[head] = setPath(inner, rest.join("."), value);
  }
  return copy as T;
}

/** The value a field shows: the policy's, else the field's default. */
export function fieldValue(p: PolicyDraft, f: PolicyField): unknown {
  const v = getPath(p, f.path);
  if (f.kind === "section") return v;
  return v === undefined || v === null ? f.default : v;
}

/** Whether a server error key belongs to a field: its path, or one of its entries ("workflow.languages[1]"). */
export function ownsError(f: PolicyField, key: string): boolean {
  return key === `workflow.${f.path}` || key.startsWith(`workflow.${f.path}[`);
}

/** A field's error, if the server sent one. */
export function fieldError(errors: Record<string, string>, f: PolicyField): string | undefined {
  return Object.entries(errors).find(([k]) => ownsError(f, k))?.[1];
}

/** Whether a field is shown for this policy and context. */
export function fieldShown(f: PolicyField, p: PolicyDraft, ctx: PolicyContext): boolean {
  if (f.kind === "section" && f.available && !f.available(ctx) && getPath(p, f.path) === undefined) return false;
  return !f.when || f.when(p, ctx);
}
