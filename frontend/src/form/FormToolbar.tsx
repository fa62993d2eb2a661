import { useState } from "react";
import { useTranslation } from "react-i18next";

const AUTO_ADVANCE_KEY = "arbiter.form.autoAdvance";

/** Whether a one-key answer moves on to the next question; remembered in this browser. */
export function useAutoAdvance(): [boolean, (on: boolean) => void] {
  const [auto, setAuto] = useState(() => localStorage.getItem(AUTO_ADVANCE_KEY) !== "off");
  const toggle = (on: boolean) => {
    setAuto(on);
    localStorage.setItem(AUTO_ADVANCE_KEY, on ? "on" : "off");
  };
  return [auto, toggle];
}

interface Props {
  answered: number;
  total: number;
  auto: boolean;
  onAuto: (on: boolean) => void;
  legend: boolean;
  onLegend: (open: boolean) => void;
}

/** Above the questions: how many are answered, auto-advance, and the shortcut legend's button. */
export function FormToolbar({ answered, total, auto, onAuto, legend, onLegend }: Props) {
  const { t } = useTranslation();
  return (
    <div className="aform-toolbar">
      <div className="progress" aria-label={t("form.answeredAria", { answered, total })}>
        <div className="progress-bar" style={{ width: `${total ? (100 * answered) / total : 0}%` }} />
      </div>
      <span className="progress-text">
        {t("form.answered", { answered, total })}
      </span>
      <label className="auto-toggle" title={t("form.autoAdvanceTitle")}>
        <input type="checkbox" tabIndex={-1} checked={auto} onChange={(e) => onAuto(e.target.checked)} /> {t("form.autoAdvance")}
      </label>
      <button type="button" className="btn btn-ghost btn-sm" tabIndex={-1} onClick={() => onLegend(!legend)} aria-expanded={legend}>
        {t("form.shortcuts")} <kbd className="kbd">?</kbd>
      </button>
    </div>
  );
}
