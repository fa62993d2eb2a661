import { useState } from "react";
import { InputValue } from "./InputValue";
import { SyncToggle, ZoomSync } from "../../media/ZoomSync";
import { asCandidates, slotLabel } from "../schema";
import type { AnswerValue } from "../../api";
import { useTranslation } from "react-i18next";

/**
 * The outputs being compared, side by side as Response A, B, …, each
 * rendered by its own type. The current answer is marked on the responses.
 */
export function CandidatesView({ value, label, answer }: { value: unknown; label: string; answer?: AnswerValue }) {
  const { t } = useTranslation();
  const cands = asCandidates(value);
  const [linked, setLinked] = useState(true);
  const anyImage = cands.some((c) => c.type === "image" || c.type === "image_list");
  if (cands.length === 0) return <p className="muted">{t("inputs.noResponses")}</p>;
  return (
    <div className="candidates">
      {anyImage && cands.length > 1 && (
        <div className="gallery-bar">
          <SyncToggle on={linked} onChange={setLinked} />
        </div>
      )}
      <ZoomSync on={linked}>
        <div className={`cand-grid n${Math.min(cands.length, 3)}`}>
          {cands.map((c, i) => {
            const slot = slotLabel(i);
            const picked = answer === slot || (Array.isArray(answer) && answer[0] === slot);
            const rank = Array.isArray(answer) ? answer.indexOf(slot) : -1;
            return (
              <section key={c.id ?? i} className={picked ? "cand picked" : answer === "tie" ? "cand tie" : "cand"} aria-label={t("question.response", { slot })}>
                <header className="cand-head">
                  <span className="slot">{slot}</span>
                  <span className="cand-title">{t("question.response", { slot })}</span>
                  <span className="type-chip">{c.type.replace("_", " ")}</span>
                  {rank >= 0 && <span className="rank-chip">#{rank + 1}</span>}
                </header>
                <InputValue type={c.type} value={c.value} label={t("inputs.responseOf", { label, slot })} />
              </section>
            );
          })}
        </div>
      </ZoomSync>
    </div>
  );
}
