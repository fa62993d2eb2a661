import { useEffect, useRef } from "react";
import { isTextField } from "../../../form/useFormKeyboard";

/** A page shortcut: `key` is matched against KeyboardEvent.key (or `code` against .code), `shift` must match. */
export interface PageKey {
  key: string;
  code?: string;
  shift?: boolean;
  run: () => void;
}

/**
 * Page-level shortcuts (skip, flag, verdicts). They listen in the capture
 * phase, before the form's own keys, and never act inside text fields or with
 * Ctrl, Alt or Meta held.
 */
export function usePageKeys(keys: PageKey[], enabled = true) {
  const ref = useRef(keys);
  ref.current = keys;
  useEffect(() => {
    if (!enabled) return;
    function onKeyDown(e: KeyboardEvent) {
      if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return;
      if (isTextField(e.target)) return;
      const k = ref.current.find(
        (p) => (p.code ? p.code === e.code : p.key.toLowerCase() === e.key.toLowerCase()) && !!p.shift === e.shiftKey,
      );
      if (!k) return;
      e.preventDefault();
      e.stopPropagation();
      k.run();
    }
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, [enabled]);
}
