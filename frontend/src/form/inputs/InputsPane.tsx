import { useMemo } from "react";
import { InputValue } from "./InputValue";
import { MediaRefsContext, mediaRefs, WithRefs } from "./mediaRefs";
import { CandidatesView } from "./CandidatesView";
import { traitsOf } from "../kinds";
import { candidatesInput, questionSees, visibleInputs } from "../schema";
import type { Answers, Item, Question, Schema } from "../../api";
import { unitName } from "../../components/unitName";
import { useTranslation } from "react-i18next";

/**
 * The item's inputs in schema order. Inputs the focused question may not
 * see are folded away (kept mounted, so players keep their position).
 */
export function InputsPane({ schema, item, focused, answers }: { schema: Schema; item: Item; focused?: Question; answers: Answers }) {
  const { t } = useTranslation();
  const compared = focused && traitsOf(focused.kind).compares ? candidatesInput(schema, focused)?.name : undefined;
  const inputs = visibleInputs(schema).filter((i) => !(i.optional && item.inputs[i.name] == null));
  const refs = useMemo(() => mediaRefs(schema, item), [schema, item]);
  return (
    <MediaRefsContext.Provider value={refs}>
      <div className="inputs-pane" aria-label={t("inputs.item")}>
        {item.external_id && (
          <div className="item-id">
            <span className="eyebrow">{t("inputs.item")}</span> <code title={item.external_id}>{unitName(item.external_id)}</code>
          </div>
        )}
        {inputs.map((inp) => {
          const sees = questionSees(focused, inp.name);
          const label = inp.label || inp.name;
          return (
            <section key={inp.name} className={sees ? "input-block" : "input-block withheld"} data-input={inp.name} aria-hidden={!sees || undefined}>
              <header className="input-head">
                <h3>{label}</h3>
                <span className="type-chip">{inp.type.replace("_", " ")}</span>
                {!sees && <span className="withheld-chip" title={t("inputs.notShownFor", { label: focused?.label })}>
                    {t("inputs.notForThis")}
                  </span>}
              </header>
              <div className="input-body" hidden={!sees}>
                {inp.help && (
                  <p className="input-help">
                    <WithRefs text={inp.help} />
                  </p>
                )}
                {inp.type === "candidates" ? (
                  <CandidatesView value={item.inputs[inp.name]} label={label} answer={compared === inp.name && focused ? answers[focused.key] : undefined} />
                ) : (
                  <InputValue type={inp.type} value={item.inputs[inp.name]} label={label} />
                )}
              </div>
            </section>
          );
        })}
      </div>
    </MediaRefsContext.Provider>
  );
}
