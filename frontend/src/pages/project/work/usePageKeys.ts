import { useEffect, useEffectEvent } from "react";
import { isTextField } from "../../../form/useFormKeyboard";

/**
 * A page shortcut: `key` is matched against KeyboardEvent.key (or `code`
 * against .code), and `shift` must match — "any" for symbols such as "?"
 * that need Shift on some keyboards and not on others.
 */
export interface PageKey {
  key: string;
  code?: string;
  shift?: boolean | "any";
  run: () => void;
}

const shiftMatches = (p: PageKey, e: KeyboardEvent) => p.shift === "any" || !!p.shift === e.shiftKey;

/**
 * Page-level shortcuts (skip, flag, verdicts). They listen in the capture
 * phase, before the form's own keys, and never act inside text fields or with
 * Ctrl, Alt or Meta held.
 */
export function usePageKeys(keys: PageKey[], enabled = true) {
  const onKeyDown = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (isTextField(e.target)) return;
    const k = keys.find((p) => (p.code ? p.code === e.code : p.key.toLowerCase() === e.key.toLowerCase()) && shiftMatches(p, e));
    if (!k) return;
    e.preventDefault();
    e.stopPropagation();
    k.run();
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (e: KeyboardEvent) => onKeyDown(e);
    window.addEventListener("keydown", listener, true);
    return () => window.removeEventListener("keydown", listener, true);
  }, [enabled]);
}
