// The columns an adjudicator can start the final label from: each label as its
// annotator submitted it, each reviewer's correction, and the consensus.
import i18n from "../../../i18n";
import type { Answers, ClaimContext, ConsensusState, LabelView, QuestionConsensus } from "../../../api";

export interface Column {
  id: string;
  kind: "label" | "correction" | "consensus";
  title: string;
  /** What the header says under the title: the review's verdict, "correction", "consensus". */
  note?: string;
  /** The review's verdict on a label column. */
  verdict?: string;
  /** The review's overall comment on a label column. */
  comment?: string;
  answers: Answers;
  /** The reviewer's notes per question, shown under a label's answers. */
  notes?: Record<string, string>;
  notesBy?: string;
  /** False for a rejected label: shown, but left out of consensus. */
  counted: boolean;
  /** Takes the column's answer for the question in focus (1–9). */
  digit?: string;
  /** Copies the whole column into the final label. */
  letter?: string;
}

/** Keys for taking a whole column: letters the page uses for nothing else (e, j, k, n, p, r are taken). */
export const COLUMN_LETTERS = "abcdfghilmoqstuvwxyz".split("");

/** The display name of label i: the person's name when shown, else their pseudonym. */
export function labelName(l: LabelView, i: number): string {
  return l.name || l.by || i18n.t("adjudicate.column.label", { n: i + 1 });
}

/** Who reviewed a label. */
export function reviewerName(l: LabelView): string {
  return l.review?.name || l.review?.by || i18n.t("adjudicate.column.reviewer");
}

/**
 * The columns in order: each label (its original answers) followed by its
 * reviewer's correction or answers when there are some, then the consensus
 * when it settled anything. Each column gets a digit and a letter while they last.
 */
export function columnsOf(ctx: ClaimContext): Column[] {
  const out: Column[] = [];
  (ctx.labels ?? []).forEach((l, i) => {
    const review = l.review;
    out.push({
      id: l.assignment_id,
      kind: "label",
      title: labelName(l, i),
      verdict: review?.verdict,
      comment: review?.comment || undefined,
      answers: (l.original ?? l.answers) as Answers,
      notes: review?.comments,
      notesBy: review ? reviewerName(l) : undefined,
      counted: l.counted ?? true,
    });
    if (review?.answers && Object.keys(review.answers).length) {
      out.push({
        id: `${l.assignment_id}-review`,
        kind: "correction",
        title: reviewerName(l),
        note: i18n.t(review.verdict === "correct" ? "adjudicate.column.correctionOf" : "adjudicate.column.answersOn", { name: labelName(l, i) }),
        answers: review.answers as Answers,
        counted: l.counted ?? true,
      });
    }
  });
  const settled = consensusAnswers(ctx.consensus?.questions);
  if (Object.keys(settled).length) out.push({ id: "consensus", kind: "consensus", title: i18n.t("adjudicate.column.consensus"), note: i18n.t("adjudicate.column.settled"), answers: settled, counted: true });
  return out.map((c, i) => ({ ...c, digit: i < 9 ? String(i + 1) : undefined, letter: COLUMN_LETTERS[i] }));
}

/** The answers the consensus rule settled, by question ("missing" left out: nobody answers it). */
function consensusAnswers(qs: QuestionConsensus[] | undefined): Answers {
  const out: Answers = {};
  for (const q of qs ?? []) if (q.answer !== undefined && q.answer !== null && q.state !== "missing") out[q.question] = q.answer as Answers[string];
  return out;
}

/** The consensus state of each question, as the server reports it. */
export function statesOf(ctx: ClaimContext): Record<string, ConsensusState> {
  const out: Record<string, ConsensusState> = {};
  for (const q of ctx.consensus?.questions ?? []) out[q.question] = q.state;
  return out;
}

/** A column's answers a person may give: the system's "missing" is never copied. */
export function takeable(c: Column): Answers {
  const out: Answers = {};
  for (const [k, v] of Object.entries(c.answers)) if (v !== undefined && v !== null && v !== "missing") out[k] = v;
  return out;
}
