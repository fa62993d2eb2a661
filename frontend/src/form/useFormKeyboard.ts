import { useEffect, useEffectEvent } from "react";

/** Elements where typed keys belong to the field, not to shortcuts. */
export function isTextField(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable) return true;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLInputElement) {
    return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(el.type);
  }
  return false;
}

export interface FormKeyHandlers {
  submit: () => void;
  move: (delta: number) => void;
  toggleLegend: () => void;
  closeLegend: () => boolean;
  leaveField: () => void;
  /** Keys for the focused question; returns true when used. */
  answer: (key: string) => boolean;
}

/**
 * Listens on the document while mounted, so shortcuts work wherever focus is
 * on the page, except in text fields (where only Esc and Ctrl+Enter act)
 * and for keys a focused media player already handled.
 */
export function useFormKeyboard(h: FormKeyHandlers, enabled = true) {
  const onKeyDown = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing) return;
    const t = e.target;
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      h.submit();
      return;
    }
    if (isTextField(t)) {
      if (e.key === "Escape") {
        e.preventDefault();
        h.leaveField();
      }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const el = t instanceof HTMLElement ? t : null;
    if (e.key === " " && el?.closest("[data-media-keys], button, a, summary, [role=tab]")) return;
    if (e.key === "Escape" && el?.closest("[data-media-keys]")) {
      e.preventDefault();
      h.leaveField();
      return;
    }
    if (e.key === "?") {
      e.preventDefault();
      h.toggleLegend();
    } else if (e.key === "Escape") {
      if (h.closeLegend()) e.preventDefault();
    } else if (e.key === "j" || e.key === "ArrowDown") {
      e.preventDefault();
      h.move(1);
    } else if (e.key === "k" || e.key === "ArrowUp") {
      e.preventDefault();
      h.move(-1);
    } else if (e.key === "Enter" && el && el !== document.body && el.closest("button, a, summary, [role=tab]")) {
      // Enter on a focused button or link activates it.
    } else if (h.answer(e.key)) {
      e.preventDefault();
    }
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (e: KeyboardEvent) => onKeyDown(e);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, [enabled]);
}
