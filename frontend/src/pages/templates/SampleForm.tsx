import { useState } from "react";
import { AnnotationForm } from "../../form/AnnotationForm";
import { ErrorMessage } from "../../components/ErrorMessage";
import { MediaBaseContext, TEMPLATE_MEDIA_BASE } from "../../media/resolve";
import type { AnswerErrors, AnswerValue, Item, Schema } from "../../api";
import { useValidateAnswers, type Verdict } from "./api";

interface Props {
  templateId: string;
  form?: string;
  schema: Schema;
  item: Item;
}

/** A sample item in the form; "Check answers" asks the server to validate. */
export function SampleForm({ templateId, form, schema, item }: Props) {
  const check = useValidateAnswers(templateId);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [sent, setSent] = useState<Record<string, AnswerValue> | null>(null);
  const serverErrors: AnswerErrors | undefined = verdict && !verdict.valid ? verdict.errors : undefined;

  function onSubmit(answers: Record<string, AnswerValue>) {
    setVerdict(null);
    setSent(answers);
    check.mutate({ answers, form }, { onSuccess: setVerdict });
  }

  return (
    <MediaBaseContext.Provider value={TEMPLATE_MEDIA_BASE}>
      <AnnotationForm
        schema={schema}
        item={item}
        onSubmit={onSubmit}
        onAnswersChange={() => setVerdict(null)}
        serverErrors={serverErrors}
        submitting={check.isPending}
        submitLabel="Check answers"
        status={verdict || check.error ? <VerdictView verdict={verdict} error={check.error} /> : undefined}
      />
      {sent && verdict?.valid && (
        <details className="sent-answers">
          <summary>Answers sent</summary>
          <pre>{JSON.stringify(sent, null, 2)}</pre>
        </details>
      )}
    </MediaBaseContext.Provider>
  );
}

function VerdictView({ verdict, error }: { verdict: Verdict | null; error: unknown }) {
  if (error) return <ErrorMessage error={error} title="Could not check the answers" />;
  if (!verdict) return null;
  if (verdict.valid) {
    return (
      <div className="verdict ok" role="status" data-testid="verdict">
        <strong>valid: true</strong> <span>The server accepted these answers.</span>
      </div>
    );
  }
  const n = Object.keys(verdict.errors).length;
  return (
    <div className="verdict bad" role="alert" data-testid="verdict">
      <strong>valid: false</strong> <span>{n === 1 ? "1 question needs attention" : `${n} questions need attention`} — see the marked questions.</span>
    </div>
  );
}
