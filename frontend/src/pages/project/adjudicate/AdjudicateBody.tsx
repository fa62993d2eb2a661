import { useEffect, useEffectEvent, useReducer, useRef, useState } from "react";
import type { TFunction } from "i18next";
import type { Claim, FieldProblem } from "../../../api";
import { validateAnswers } from "../../../form/answers";
import { AnnotationForm } from "../../../form/AnnotationForm";
import { InputsPane } from "../../../form/inputs/InputsPane";
import { KeyLegend, PAGE_MEDIA_KEYS, type LegendSection } from "../../../form/ShortcutLegend";
import { mediaPageKeys, usePageKeys, type PageKey, type WorkSession } from "../work";
import type { Column } from "./columns";
import { DecisionCard } from "./DecisionCard";
import { decisionReducer, missingAnswers, startDecision } from "./decision";
import { LabelsTable } from "./LabelsTable";
import { useTranslation } from "react-i18next";

/** The legend, with the keys of this item's columns. */
function adjudicateKeys(t: TFunction, columns: Column[]): LegendSection[] {
  return [
    {
      title: t("adjudicate.legend.startFrom"),
      rows: columns
        .filter((c) => c.letter)
        .map((c): [string, string] => [
          c.letter!,
          c.note ? t("adjudicate.legend.takeNote", { title: c.title, note: c.note }) : t("adjudicate.legend.take", { title: c.title }),
        ]),
    },
    {
      title: t("adjudicate.legend.final"),
      rows: [
        ["1–9", t("adjudicate.legend.pick")],
        ["n", t("adjudicate.legend.nextDifference")],
        ["e", t("adjudicate.legend.edit")],
        ["r", t("adjudicate.legend.rationale")],
        ["⇧1–5", t("adjudicate.legend.confidence")],
        ["Ctrl+Enter", t("adjudicate.legend.submit")],
      ],
    },
    {
      title: t("review.legend.questions"),
      rows: [
        ["j / ↓", t("legend.general.next")],
        ["k / ↑", t("legend.general.previous")],
        ["Esc", t("adjudicate.legend.leave")],
        ["?", t("legend.general.toggle")],
        ["Shift+G", t("legend.general.guidelines")],
      ],
    },
  ];
}

/** One item to adjudicate; mounted afresh for each assignment. */
export function AdjudicateBody({ claim, session }: { claim: Claim; session: WorkSession }) {
  const { t } = useTranslation();
  const [d, dispatch] = useReducer(decisionReducer, claim, startDecision);
  const rationaleBox = useRef<HTMLTextAreaElement>(null);
  const [legend, setLegend] = useState(false);
  const schema = claim.item.schema;
  const qs = d.questions;
  const item = { external_id: claim.item.item.external_id || "", inputs: claim.item.item.inputs ?? {} };

  async function submit() {
    if (session.busy) return;
    const errors: Record<string, FieldProblem> = { ...validateAnswers(schema, d.picks) };
    if (!d.rationale.trim()) errors.rationale = { code: "required", message: t("adjudicate.rationaleRequired") };
    dispatch({ type: "errors", errors });
    if (Object.keys(errors).length) {
      const first = qs.findIndex((x) => errors[x.key]);
      if (first >= 0) dispatch({ type: "focus", index: first });
      else rationaleBox.current?.focus();
      return;
    }
    const body = { answers: d.picks, rationale: d.rationale.trim(), confidence: d.confidence ?? undefined, error_category: d.category || undefined };
    const out = await session.submit(claim.assignment.id, body);
    if (!out.ok && out.fields) dispatch({ type: "errors", errors: out.fields });
  }

  // Ctrl+Enter submits from anywhere, the rationale box included.
  // note: the Ctrl+Enter that closes the full form re-enables this listener while the event is
  // still on its way to the window; the form has handled it (and prevented its default) then.
  const onCtrlEnter = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    void submit();
  });
  useEffect(() => {
    if (d.editing) return;
    const listener = (e: KeyboardEvent) => onCtrlEnter(e);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, [d.editing]);

  const keys: PageKey[] = [
    { key: "j", run: () => dispatch({ type: "move", by: 1 }) },
    { key: "ArrowDown", run: () => dispatch({ type: "move", by: 1 }) },
    { key: "k", run: () => dispatch({ type: "move", by: -1 }) },
    { key: "ArrowUp", run: () => dispatch({ type: "move", by: -1 }) },
    { key: "n", run: () => dispatch({ type: "nextDifference" }) },
    { key: "e", run: () => dispatch({ type: "edit", on: true }) },
    { key: "r", run: () => requestAnimationFrame(() => rationaleBox.current?.focus()) },
    ...d.columns.flatMap((c, i) => [
      ...(c.digit ? [{ key: c.digit, run: () => dispatch({ type: "pick", column: i }) }] : []),
      ...(c.letter ? [{ key: c.letter, run: () => dispatch({ type: "take", column: i }) }] : []),
    ]),
    ...[1, 2, 3, 4, 5].map((n) => ({ key: String(n), code: `Digit${n}`, shift: true, run: () => dispatch({ type: "confidence", value: n }) })),
    { key: "?", shift: "any", run: () => setLegend((l) => !l) },
    ...mediaPageKeys(() => legend && (setLegend(false), true)),
  ];
  usePageKeys(keys, !d.editing && !session.busy);

  if (d.editing) {
    return (
      <div className="review-correct">
        <div className="review-mode-bar">
          <span>
            <strong>{t("adjudicate.editing")}</strong> {t("adjudicate.editingHelp")}
          </span>
          <button type="button" className="btn btn-sm" onClick={() => dispatch({ type: "edit", on: false })}>
            {t("adjudicate.backToLabels")}
          </button>
        </div>
        <AnnotationForm schema={schema} item={item} initialAnswers={d.picks} submitLabel={t("adjudicate.useAnswers")} onSubmit={(answers) => dispatch({ type: "answers", answers })} />
      </div>
    );
  }
  return (
    <div className={d.columns.length > 3 ? "adj-grid wide" : "adj-grid"}>
      <InputsPane schema={schema} item={item} focused={qs[d.active]} answers={d.picks} />
      <div className="review-side">
        {legend && <KeyLegend sections={adjudicateKeys(t, d.columns)} media={PAGE_MEDIA_KEYS} onClose={() => setLegend(false)} />}
        <div className="card review-card">
          <header className="review-card-head">
            <h2 className="card-title">{claim.context.consensus?.agreed ? t("adjudicate.labelsAgreed") : t("adjudicate.labelsTitle")}</h2>
            <span className="muted">
              {t("adjudicate.hint", { max: Math.min(9, d.columns.length), letter: d.columns[0]?.letter ?? "a" })}
            </span>
            <button type="button" className="btn btn-ghost btn-sm" tabIndex={-1} onClick={() => setLegend(!legend)} aria-expanded={legend}>
              {t("form.shortcuts")} <kbd className="kbd">?</kbd>
            </button>
          </header>
          <LabelsTable
            questions={qs}
            columns={d.columns}
            states={d.states}
            picks={d.picks}
            errors={d.errors}
            active={d.active}
            onActive={(index) => dispatch({ type: "focus", index })}
            onPick={(key, value) => dispatch({ type: "set", key, value })}
            onTake={(column) => dispatch({ type: "take", column })}
          />
        </div>
        <DecisionCard
          ref={rationaleBox}
          rationale={d.rationale}
          onRationale={(text) => dispatch({ type: "rationale", text })}
          confidence={d.confidence}
          onConfidence={(value) => dispatch({ type: "confidence", value })}
          category={d.category}
          onCategory={(value) => dispatch({ type: "category", value })}
          error={d.errors.rationale?.message}
          busy={session.busy}
          missing={missingAnswers(d)}
          onSubmit={() => void submit()}
        />
      </div>
    </div>
  );
}
