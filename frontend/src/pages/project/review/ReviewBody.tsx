import { useRef, useState } from "react";
import type { TFunction } from "i18next";
import type { AnswerErrors, Answers, Claim, SubmitBody } from "../../../api";
import { AnnotationForm } from "../../../form/AnnotationForm";
import { InputsPane } from "../../../form/inputs/InputsPane";
import { KeyLegend, PAGE_MEDIA_KEYS, type LegendSection } from "../../../form/ShortcutLegend";
import { mediaPageKeys, usePageKeys, type WorkSession } from "../work";
import { LabelAnswers, reviewComments } from "./LabelAnswers";
import { VerdictCard, type ReviewMode } from "./VerdictCard";
import { useTranslation } from "react-i18next";

const reviewKeys = (t: TFunction): LegendSection[] => [
  {
    title: t("review.legend.review"),
    rows: [
      ["a", t("review.legend.approve")],
      ["c", t("review.legend.correct")],
      ["r", t("review.legend.reject")],
      ["Ctrl+Enter", t("review.legend.send")],
    ],
  },
  {
    title: t("review.legend.questions"),
    rows: [
      ["j / ↓", t("legend.general.next")],
      ["k / ↑", t("legend.general.previous")],
      ["m", t("review.legend.comment")],
      ["Esc", t("review.legend.leave")],
      ["?", t("legend.general.toggle")],
      ["Shift+G", t("legend.general.guidelines")],
    ],
  },
];

/** One label to review; mounted afresh for each assignment. */
export function ReviewBody({ claim, session }: { claim: Claim; session: WorkSession }) {
  const { t } = useTranslation();
  const schema = claim.item.schema;
  const qs = schema.questions;
  const blind = !!claim.context.blind;
  const label: Answers = claim.context.label?.answers ?? {};
  const item = { external_id: claim.item.item.external_id || "", inputs: claim.item.item.inputs ?? {} };
  const [mode, setMode] = useState<ReviewMode>("look");
  const [active, setActive] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const [comments, setComments] = useState<Record<string, string>>({});
  const [overall, setOverall] = useState("");
  const [fieldErrors, setFieldErrors] = useState<AnswerErrors | undefined>();
  const [legend, setLegend] = useState(false);
  const commentBox = useRef<HTMLTextAreaElement>(null);
  const answering = blind || mode === "correct";

  async function send(body: SubmitBody) {
    // Answer problems go on the form's questions; anything else (e.g. a comment on an unknown question) is shown as is.
    const onForm = (fields: AnswerErrors) => answering && Object.keys(fields).some((k) => qs.some((x) => x.key === k));
    const out = await session.submit(claim.assignment.id, body, onForm);
    if (!out.ok && out.fields) setFieldErrors(out.fields);
  }
  /** The overall note and the per-question comments, as the server stores them. */
  const notes = (): Pick<SubmitBody, "comment" | "comments"> => {
    const per = reviewComments(comments, qs);
    return { comment: overall.trim() || undefined, comments: Object.keys(per).length ? per : undefined };
  };
  const approve = () => void send({ verdict: "approve", ...notes() });
  const reject = () => {
    const n = notes();
    if (n.comment || n.comments) return void send({ verdict: "reject", ...n });
    setMode("reject");
    commentBox.current?.focus();
  };
  const move = (d: number) => setActive((i) => Math.max(0, Math.min(qs.length - 1, i + d)));

  usePageKeys(
    [
      { key: "a", run: approve },
      { key: "c", run: () => setMode("correct") },
      {
        key: "r",
        run: () => {
          setMode("reject");
          requestAnimationFrame(() => commentBox.current?.focus());
        },
      },
      { key: "j", run: () => move(1) },
      { key: "ArrowDown", run: () => move(1) },
      { key: "k", run: () => move(-1) },
      { key: "ArrowUp", run: () => move(-1) },
      { key: "m", run: () => qs[active] && setEditing(qs[active].key) },
      { key: "?", shift: "any", run: () => setLegend((l) => !l) },
      ...mediaPageKeys(() => legend && (setLegend(false), true)),
    ],
    !answering && !session.busy,
  );

  if (answering) {
    return (
      <div className="review-correct">
        {blind ? (
          <p className="muted">{t("review.blind")}</p>
        ) : (
          <div className="review-mode-bar">
            <span>
              <strong>{t("review.correcting")}</strong> {t("review.correctingHelp")}
            </span>
            <button type="button" className="btn btn-sm" onClick={() => setMode("look")}>
              {t("review.backToLabel")}
            </button>
          </div>
        )}
        <AnnotationForm
          schema={schema}
          item={item}
          initialAnswers={blind ? (claim.draft ?? {}) : label}
          onSubmit={(answers) => void send(blind ? { answers } : { verdict: "correct", answers, ...notes() })}
          serverErrors={fieldErrors}
          submitLabel={blind ? t("review.submitReview") : t("review.submitCorrection")}
        />
      </div>
    );
  }
  return (
    <div className="review-grid">
      <InputsPane schema={schema} item={item} focused={qs[active]} answers={label} />
      <div className="review-side">
        {legend && <KeyLegend sections={reviewKeys(t)} media={PAGE_MEDIA_KEYS} onClose={() => setLegend(false)} />}
        <div className="card review-card">
          <header className="review-card-head">
            <h2 className="card-title">{t("review.underReview")}</h2>
            <span className="muted">{t("review.hint")}</span>
            <button type="button" className="btn btn-ghost btn-sm" tabIndex={-1} onClick={() => setLegend(!legend)} aria-expanded={legend}>
              {t("form.shortcuts")} <kbd className="kbd">?</kbd>
            </button>
          </header>
          <LabelAnswers
            questions={qs}
            answers={label}
            active={active}
            onActive={setActive}
            comments={comments}
            editing={editing}
            onEdit={setEditing}
            onComment={(k, text) => setComments((c) => ({ ...c, [k]: text }))}
          />
        </div>
        <VerdictCard ref={commentBox} mode={mode} onMode={setMode} overall={overall} onOverall={setOverall} busy={session.busy} onApprove={approve} onReject={reject} />
      </div>
    </div>
  );
}
