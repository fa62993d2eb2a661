import type { Kind } from "../api";
import { forKind } from "./kinds";

const GENERAL: [string, string][] = [
  ["j / ↓", "Next question"],
  ["k / ↑", "Previous question"],
  ["Tab / ⇧Tab", "Next / previous control"],
  ["Enter", "Submit (on a text question: start typing)"],
  ["Ctrl+Enter", "Submit, also from a text field"],
  ["Esc", "Leave a text field · close this legend"],
  ["Delete / ⌫", "Clear the answer"],
  ["?", "Show or hide shortcuts"],
  ["Shift+G", "Show or hide the project's guidelines"],
];

/** The answer keys of each kind. */
const BY_KIND: Record<Kind, [string, string][]> = {
  binary: [["y · n · a", "Yes · No · N/A"]],
  likert: [
    ["1–9, 0", "Score (0 is 10 on a 1–10 scale)"],
    ["← →", "Step down / up"],
    ["a", "N/A (when offered)"],
  ],
  choice: [["1–9, 0", "Pick option 1–10"], ["← →", "Previous / next option"]],
  multi_choice: [["1–9, 0", "Toggle option 1–10"]],
  pairwise: [["a · b · t", "A better · B better · Tie"]],
  ranking: [["a, b, …", "Rank responses best first"], ["⌫", "Undo the last"]],
  checklist: [["0–9", "Score the current item, then the next"], ["← →", "Previous / next item"]],
  text: [["Enter / i", "Start typing"]],
  criteria: [["Enter / i", "Start typing; Enter adds a criterion"], ["↑", "Edit the last criterion (empty field)"]],
  list_edit: [
    ["1 · 2 · 3", "Keep · drop · reword the current entry, then the next"],
    ["← →", "Previous / next entry"],
    ["Enter / i", "Type a new entry; Enter adds it"],
  ],
};

const MEDIA: [string, string][] = [
  ["p", "Focus the next player or image; Esc returns"],
  ["Space", "Play / pause the first video or audio"],
  ["k", "Play / pause (player focused)"],
  [", .", "Back / forward one frame (1/30 s)"],
  ["[ ]", "Slower / faster"],
  ["← →", "Seek 5 s"],
  ["m", "Mute"],
  ["+ − 0", "Zoom in / out / fit (image focused)"],
];

/** The media keys of a page without a form (no Space: it stays with buttons). */
export const PAGE_MEDIA_KEYS: [string, string][] = MEDIA.filter(([k]) => k !== "Space");

function Table({ title, rows }: { title: string; rows: [string, string][] }) {
  return (
    <section>
      <h4>{title}</h4>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k + v} className="legend-row">
            <dt>
              <kbd className="kbd">{k}</kbd>
            </dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A titled list of keys and what they do. */
export interface LegendSection {
  title: string;
  rows: [string, string][];
}

/** The keyboard legend of a page: its sections, then the media keys. */
export function KeyLegend({ sections, media = MEDIA, onClose }: { sections: LegendSection[]; media?: [string, string][]; onClose: () => void }) {
  return (
    <aside className="legend" role="dialog" aria-label="Keyboard shortcuts">
      <header>
        <h3>Keyboard shortcuts</h3>
        <button type="button" className="btn btn-ghost btn-sm" tabIndex={-1} onClick={onClose}>
          Close <kbd className="kbd">?</kbd>
        </button>
      </header>
      <div className="legend-cols">
        {sections.map((s) => (
          <Table key={s.title} title={s.title} rows={s.rows} />
        ))}
        <Table title="Media" rows={media} />
      </div>
    </aside>
  );
}

/** The form's keyboard legend; lists the keys of the kinds this form uses. */
export function ShortcutLegend({ kinds, onClose }: { kinds: Kind[]; onClose: () => void }) {
  const used = [...new Set(kinds)];
  return (
    <KeyLegend
      sections={[
        { title: "Form", rows: GENERAL },
        { title: "Answers", rows: used.flatMap((k) => forKind(BY_KIND, k) ?? []) },
      ]}
      onClose={onClose}
    />
  );
}
