import { Kbd } from "./Kbd";
import { candidatesInput, slotLabel } from "../schema";
import type { QuestionProps } from "./types";
import { useTranslation } from "react-i18next";

/** Orders the candidates best first: press their letters in order; Backspace undoes. */
export function RankingQuestion({ q, schema, value, onChange }: QuestionProps) {
  const { t } = useTranslation();
  const n = candidatesInput(schema, q)?.count || 2;
  const ranked = Array.isArray(value) ? value : [];
  const slots = Array.from({ length: n }, (_, i) => slotLabel(i));
  function add(s: string) {
    if (ranked.includes(s)) return onChange(ranked.filter((r) => r !== s).length ? ranked.filter((r) => r !== s) : undefined);
    let next = [...ranked, s];
    if (next.length === n - 1) next = [...next, ...slots.filter((x) => !next.includes(x))];
    onChange(next);
  }
  return (
    <div className="answer-row">
      <ol className="ranking" aria-label={t("question.rankingAria")}>
        {slots.map((_, i) => (
          <li key={i} className={ranked[i] ? "rank filled" : "rank"}>
            <span className="rank-no">{i + 1}</span>
            {ranked[i] ? t("question.response", { slot: ranked[i] }) : "—"}
          </li>
        ))}
      </ol>
      <div className="choices">
        {slots.map((s) => (
          <button key={s} type="button" tabIndex={-1} className={ranked.includes(s) ? "choice on" : "choice"} onClick={() => add(s)}>
            <Kbd>{s}</Kbd> {t("question.response", { slot: s })}
          </button>
        ))}
        <button type="button" tabIndex={-1} className="choice ghost" onClick={() => onChange(undefined)} disabled={!ranked.length}>
          <Kbd>⌫</Kbd> {t("question.undo")}
        </button>
      </div>
    </div>
  );
}
