import type { AnswerValue, Question, Schema } from "../../api";

/** What every question widget receives. */
export interface QuestionProps {
  q: Question;
  schema: Schema;
  value: AnswerValue | undefined;
  onChange: (v: AnswerValue | undefined) => void;
  /** Active checklist sub-item. */
  sub: number;
  setSub: (i: number) => void;
  /** The item's input values, for questions that read one (list_edit). */
  inputs?: Record<string, unknown>;
}
