import { forwardRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface Props {
  missing: string[];
  onJump: () => void;
  errorCount: number;
  onSubmit: () => void;
  submitting?: boolean;
  label: string;
  status?: ReactNode;
}

/** Sticky footer: what is still missing, the verdict, and submit. */
export const FormFooter = forwardRef<HTMLButtonElement, Props>(function FormFooter(p, ref) {
  const { t } = useTranslation();
  return (
    <footer className="aform-footer">
      <div className="footer-info">
        {p.status}
        {!p.status && p.missing.length > 0 && (
          <button type="button" className="link-btn missing" tabIndex={-1} onClick={p.onJump}>
            {t("form.missing", { count: p.missing.length, list: p.missing.slice(0, 3).join(t("form.listSeparator")) })}
            {p.missing.length > 3 ? "…" : ""}
          </button>
        )}
        {!p.status && p.missing.length === 0 && p.errorCount === 0 && <span className="ready">{t("form.allGiven")}</span>}
      </div>
      <button ref={ref} type="button" className="btn btn-primary" onClick={p.onSubmit} disabled={p.submitting}>
        {p.submitting ? t("form.checking") : p.label} <kbd className="kbd kbd-on-primary">Ctrl+Enter</kbd>
      </button>
    </footer>
  );
});
