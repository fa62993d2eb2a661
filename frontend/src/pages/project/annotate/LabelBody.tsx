import { memo, useState } from "react";
import type { AnswerErrors, Answers, AnswerValue, Claim } from "../../../api";
import { AnnotationForm } from "../../../form/AnnotationForm";
import { hasMorePasses, startingAnswers, type WorkSession } from "../work";
import { useTranslation } from "react-i18next";

interface Props {
  claim: Claim;
  /** Milliseconds since this item was shown. */
  elapsed: () => number;
  submit: WorkSession["submit"];
  /** Autosave: every change, and pausing it while a submit is out. */
  onChange: (answers: Answers) => void;
  pause: () => void;
  resume: () => void;
  /** Off while a dialog is on top of the form. */
  keyboard: boolean;
  /** The problems per question of a submit refused after the next item was shown, once this item is back. */
  refused?: AnswerErrors;
}

/**
 * One item to label: the form, started from this browser's copy of the draft
 * (else the server's). note: memoised, so the work bar's ticking clock and
 * save state do not re-render the question cards, and every prop is stable
 * across items, so the item rendered ahead (hidden) is shown without a render.
 */
export const LabelBody = memo(function LabelBody({ claim, elapsed, submit, onChange, pause, resume, keyboard, refused }: Props) {
  const { t } = useTranslation();
  const aid = claim.assignment.id;
  const [initial] = useState(() => startingAnswers(aid, claim.draft));
  const [errors, setErrors] = useState<AnswerErrors | undefined>(refused);

  async function onSubmit(answers: Record<string, AnswerValue>) {
    pause();
    const out = await submit(aid, { answers, time_spent_ms: Math.round(elapsed()) });
    if (out.ok) return;
    resume();
    if (out.fields) setErrors(out.fields);
  }

  const { item, pass } = claim.item;
  const more = hasMorePasses(claim);
  return (
    <>
      {pass && (
        <div className="notice pass-banner" role="status" data-testid="pass">
          <strong>{t("annotate.pass", { number: pass.number, count: pass.count, label: pass.label })}</strong>
          {pass.help && <span> — {pass.help}</span>}
        </div>
      )}
      <AnnotationForm
      schema={claim.item.schema}
      item={{ external_id: item.external_id || "", inputs: item.inputs ?? {}, meta: item.meta }}
      initialAnswers={initial}
      onAnswersChange={onChange}
      onSubmit={(a) => void onSubmit(a)}
      serverErrors={errors}
        submitLabel={more ? t("annotate.submitPass") : t("annotate.submit")}
        keyboard={keyboard}
      />
    </>
  );
});
