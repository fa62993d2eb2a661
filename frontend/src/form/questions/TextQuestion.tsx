import { useLayoutEffect, useRef } from "react";
import type { QuestionProps } from "./types";
import { useTranslation } from "react-i18next";

/** Free text with a live character count against min/max length. */
export function TextQuestion({ q, value, onChange }: QuestionProps) {
  const { t } = useTranslation();
  const text = typeof value === "string" ? value : "";
  const n = [...text.trim()].length;
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight + 2, 320)}px`;
  }, [text]);
  const short = q.min_length && n < q.min_length;
  const long = q.max_length && n > q.max_length;
  return (
    <div className="answer-row">
      <textarea
        ref={ref}
        data-edit
        className="text-answer"
        rows={2}
        value={text}
        placeholder={q.placeholder || t("question.textPlaceholder")}
        aria-label={q.label}
        maxLength={q.max_length ? q.max_length + 200 : undefined}
        onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
      />
      <p className={short || long ? "counter warn" : "counter"}>
        {q.max_length ? t("question.charactersOf", { n, max: q.max_length }) : t("question.characters", { n })}
        {q.min_length ? t("question.atLeast", { min: q.min_length }) : ""}
      </p>
    </div>
  );
}
