// The round form's choices and the request they make; pure, so tests can
// check what is sent without a page.
import { PASS_METRICS, type PassMetric, type PassRule, type RoundRequest } from "../../../api/quality";

export interface RoundChoices {
  name: string;
  mode: "sample" | "pick";
  sample: string;
  externalIds: string;
  participants: string[];
  metric: PassMetric;
  threshold: string;
  questions: string[];
}

export const defaultRoundChoices: RoundChoices = {
  name: "",
  mode: "sample",
  sample: "20",
  externalIds: "",
  participants: [],
  metric: "accuracy_vs_gold",
  threshold: "0.8",
  questions: [],
};

/** External ids typed one per line or separated by commas, blanks and repeats left out. */
export function parseIds(text: string): string[] {
  return [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean))];
}

/**
 * The request of the choices. Numbers that do not parse are sent as they are
 * typed (NaN becomes null in JSON) so the server names the field.
 */
export function roundRequest(c: RoundChoices): RoundRequest {
  // note: no questions means every question the measure applies to.
  const pass: PassRule = { metric: c.metric, threshold: Number(c.threshold), questions: c.questions };
  const base = { name: c.name.trim(), participants: c.participants, pass };
  return c.mode === "sample" ? { ...base, sample: Number(c.sample) } : { ...base, external_ids: parseIds(c.externalIds) };
}

/** Each pass metric in words, lower case, as a rule reads it. */
export const METRIC_LABEL = Object.fromEntries(PASS_METRICS.map((m) => [m.value, m.label.toLowerCase()])) as Record<PassMetric, string>;

/** The pass rule in words: "accuracy against gold ≥ 0.80 on physical, instruction". */
export function ruleText(p: PassRule, labels: Record<PassMetric, string>): string {
  const on = p.questions && p.questions.length > 0 ? ` on ${p.questions.join(", ")}` : " on every question";
  return `${labels[p.metric] ?? p.metric} ≥ ${p.threshold}${on}`;
}
