import { useEffect, useEffectEvent } from "react";
import { focusNextMedia } from "../../../form/mediaFocus";
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

/** Keys a focused video, audio or image viewer handles itself (play, frames, speed, seek, mute, zoom). */
const PLAYER_KEYS = new Set(["k", "m", ",", ".", "[", "]", "+", "-", "=", "0", " ", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]);
const inPlayer = (t: EventTarget | null) => t instanceof Element && !!t.closest("[data-media-keys]");

const shiftMatches = (p: PageKey, e: KeyboardEvent) => p.shift === "any" || !!p.shift === e.shiftKey;

/**
 * Page-level shortcuts (skip, flag, verdicts). They listen in the capture
 * phase, before the form's own keys, and never act inside text fields, on the
 * keys of a focused media player, or with Ctrl, Alt or Meta held.
 */
export function usePageKeys(keys: PageKey[], enabled = true) {
  const onKeyDown = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (isTextField(e.target)) return;
    if (inPlayer(e.target) && PLAYER_KEYS.has(e.key)) return;
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

/**
 * The media keys of a page without a form (Review, Adjudicate): p focuses the
 * next player or image, Esc leaves it; `closeLegend` closes an open legend first.
 */
export function mediaPageKeys(closeLegend: (() => boolean) | null): PageKey[] {
  return [
    { key: "p", run: () => void focusNextMedia() },
    {
      key: "Escape",
      run: () => {
        if (closeLegend?.()) return;
        const el = document.activeElement;
        if (el instanceof HTMLElement && el.closest("[data-media-keys]")) el.blur();
      },
    },
  ];
}
