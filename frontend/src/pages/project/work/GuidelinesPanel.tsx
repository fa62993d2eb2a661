import { useId, useState } from "react";
import { useOptionalUser } from "../../../auth";
import { Markdown } from "../../../form/Markdown";
import { usePageKeys } from "./usePageKeys";
import "./work.css";
import { useTranslation } from "react-i18next";

/** The key that shows and hides the guidelines on every work page (Shift+S and Shift+F skip and flag). */
export const GUIDELINES_KEY = { key: "G", shift: true, label: "Shift+G" } as const;

/** Where the panel's state is kept for a person in a project. */
export const guidelinesStorageKey = (pid: string, uid: string) => `arbiter.guidelines.${uid}.${pid}`;

function readOpen(key: string): boolean {
  try {
    // note: nothing stored is a first visit, when the guidelines are shown.
    return localStorage.getItem(key) !== "closed";
  } catch {
    return true;
  }
}

function writeOpen(key: string, open: boolean) {
  try {
    localStorage.setItem(key, open ? "open" : "closed");
  } catch {
    // Storage full or refused: the panel still toggles, only not remembered.
  }
}

/**
 * The project's guidelines above a work page (Annotate, Review, Adjudicate,
 * calibration rounds, the Overview). Open on a person's first visit to the
 * project, then as they left it; Shift+G or the button toggles it. It never
 * takes the keyboard: the key acts outside text fields, and neither the key
 * nor a click moves the focus from the form. Nothing shows when the project
 * has no guidelines.
 */
export function GuidelinesPanel({ pid, guidelines, className }: { pid: string; guidelines: string | undefined; className?: string }) {
  const { t } = useTranslation();
  const user = useOptionalUser();
  const key = guidelinesStorageKey(pid, user?.id ?? "anonymous");
  const [state, setState] = useState(() => ({ key, open: readOpen(key) }));
  // Another project or person: read their state afresh.
  const open = state.key === key ? state.open : readOpen(key);
  const has = !!guidelines?.trim();
  const toggle = () => {
    const next = !open;
    writeOpen(key, next);
    setState({ key, open: next });
  };
  usePageKeys([{ key: GUIDELINES_KEY.key, shift: GUIDELINES_KEY.shift, run: toggle }], has);
  const body = useId();
  if (!has) return null;
    return (
    <section className={["guidelines-panel", open && "open", className].filter(Boolean).join(" ")} aria-label={t("work.guidelines.title")} data-testid="guidelines">
      <div className="guidelines-head">
        <h2 className="guidelines-title">{t("work.guidelines.title")}</h2>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          tabIndex={-1}
          onMouseDown={(e) => e.preventDefault()}
          onClick={toggle}
          aria-expanded={open}
          aria-controls={body}
          aria-keyshortcuts={GUIDELINES_KEY.label}
          title={open ? t("work.guidelines.hideTitle", { key: GUIDELINES_KEY.label }) : t("work.guidelines.showTitle", { key: GUIDELINES_KEY.label })}
        >
          {open ? t("work.guidelines.hide") : t("work.guidelines.show")} <kbd className="kbd">{GUIDELINES_KEY.label}</kbd>
        </button>
      </div>
      <div id={body} className="guidelines-body" hidden={!open}>
        <Markdown source={guidelines ?? ""} />
      </div>
    </section>
  );
}

