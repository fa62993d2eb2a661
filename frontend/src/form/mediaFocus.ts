// Reaching the item's media from the questions without a mouse.

/** Players and viewers of the inputs the active question may see, in order. */
function visibleMedia(root: ParentNode = document): HTMLElement[] {
  // note: the item rendered ahead of this one is in the document too, hidden; its players are left out.
  return [...root.querySelectorAll<HTMLElement>(".inputs-pane .input-block:not(.withheld) [data-media-keys][tabindex='0']")].filter((el) => el.checkVisibility?.() ?? true);
}

/** Focuses the next visible player or image after the focused one (wrapping). */
export function focusNextMedia(): boolean {
  const all = visibleMedia();
  if (all.length === 0) return false;
  const at = all.findIndex((el) => el.contains(document.activeElement));
  const next = all[(at + 1) % all.length];
  next.focus();
  next.scrollIntoView?.({ block: "nearest" });
  return true;
}

/** Plays or pauses the first visible video or audio; true when there was one. */
export function toggleFirstMedia(): boolean {
  const el = [...document.querySelectorAll<HTMLMediaElement>(".inputs-pane .input-block:not(.withheld) video, .inputs-pane .input-block:not(.withheld) audio")].find(
    (m) => m.checkVisibility?.() ?? true,
  );
  if (!el) return false;
  if (el.paused) void el.play()?.catch(() => {});
  else el.pause();
  return true;
}
