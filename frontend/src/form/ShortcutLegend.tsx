import type { TFunction } from "i18next";
import type { Kind } from "../api";
import { forKind } from "./kinds";
import { useTranslation } from "react-i18next";

// Each row is a key and the translation key of what it does.
const GENERAL: [string, string][] = [
  ["j / ↓", "legend.general.next"],
  ["k / ↑", "legend.general.previous"],
  ["Tab / ⇧Tab", "legend.general.control"],
  ["Enter", "legend.general.submit"],
  ["Ctrl+Enter", "legend.general.submitAnywhere"],
  ["Esc", "legend.general.leave"],
  ["Delete / ⌫", "legend.general.clear"],
  ["?", "legend.general.toggle"],
  ["Shift+G", "legend.general.guidelines"],
];

/** The answer keys of each kind. */
const BY_KIND: Record<Kind, [string, string][]> = {
  binary: [["y · n · a", "legend.kind.binary"]],
  likert: [
    ["1–9, 0", "legend.kind.likertScore"],
    ["← →", "legend.kind.likertStep"],
    ["a", "legend.kind.likertNa"],
  ],
  choice: [["1–9, 0", "legend.kind.choicePick"], ["← →", "legend.kind.choiceStep"]],
  multi_choice: [["1–9, 0", "legend.kind.multiToggle"]],
  pairwise: [["a · b · t", "legend.kind.pairwise"]],
  ranking: [["a, b, …", "legend.kind.rankingRank"], ["⌫", "legend.kind.rankingUndo"]],
  checklist: [["0–9", "legend.kind.checklistScore"], ["← →", "legend.kind.checklistStep"]],
  text: [["Enter / i", "legend.kind.textType"]],
  criteria: [["Enter / i", "legend.kind.criteriaType"], ["↑", "legend.kind.criteriaEdit"]],
  list_edit: [
    ["1 · 2 · 3", "legend.kind.listKeep"],
    ["← →", "legend.kind.listStep"],
    ["Enter / i", "legend.kind.listType"],
  ],
};

const MEDIA: [string, string][] = [
  ["p", "legend.mediaKeys.focus"],
  ["Space", "legend.mediaKeys.play"],
  ["k", "legend.mediaKeys.playFocused"],
  [", .", "legend.mediaKeys.frame"],
  ["[ ]", "legend.mediaKeys.speed"],
  ["← →", "legend.mediaKeys.seek"],
  ["m", "legend.mediaKeys.mute"],
  ["+ − 0", "legend.mediaKeys.zoom"],
];

/** Rows of translation keys, in the active language. */
const translated = (t: TFunction, rows: [string, string][]): [string, string][] => rows.map(([k, v]) => [k, t(v)]);

/** The media keys of a page without a form (no Space: it stays with buttons); translation keys. */
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

/** The keyboard legend of a page: its sections, then the media keys (translation keys). */
export function KeyLegend({ sections, media = MEDIA, onClose }: { sections: LegendSection[]; media?: [string, string][]; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <aside className="legend" role="dialog" aria-label={t("legend.title")}>
      <header>
        <h3>{t("legend.title")}</h3>
        <button type="button" className="btn btn-ghost btn-sm" tabIndex={-1} onClick={onClose}>
          {t("legend.close")} <kbd className="kbd">?</kbd>
        </button>
      </header>
      <div className="legend-cols">
        {sections.map((s) => (
          <Table key={s.title} title={s.title} rows={s.rows} />
        ))}
        <Table title={t("legend.media")} rows={translated(t, media)} />
      </div>
    </aside>
  );
}

/** The form's keyboard legend; lists the keys of the kinds this form uses. */
export function ShortcutLegend({ kinds, onClose }: { kinds: Kind[]; onClose: () => void }) {
  const { t } = useTranslation();
  const used = [...new Set(kinds)];
  return (
    <KeyLegend
      sections={[
        { title: t("legend.form"), rows: translated(t, GENERAL) },
        { title: t("legend.answers"), rows: translated(t, used.flatMap((k) => forKind(BY_KIND, k) ?? [])) },
      ]}
      onClose={onClose}
    />
  );
}
