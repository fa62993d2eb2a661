// Inline media references in an item's text, as benchmarks such as Judge
// Anything write them: "Describe the object in {image#1}". The n-th image
// (video, audio, 3D model) is counted over the item's visible inputs in
// schema order, image lists one image at a time; candidates do not count.
import { createContext, useContext, type ReactNode } from "react";
import type { InputType, Item, MediaRef, Schema } from "../../api";
import { useMediaUrl } from "../../media/resolve";
import { visibleInputs } from "../schema";
import i18n from "../../i18n";
import { useTranslation } from "react-i18next";

/** A medium a reference can point to. */
export type RefKind = "image" | "video" | "audio" | "model3d";

/** One medium of the item that a reference can point to. */
export interface RefTarget {
  /** The input it belongs to. */
  input: string;
  /** Its caption, e.g. "Query images, 2". */
  label: string;
  ref: MediaRef;
}

export type MediaRefs = Partial<Record<RefKind, RefTarget[]>>;

/** `{image#1}`, `{video#2}`, `{audio#1}`, `{model3d#1}` (also `{3d#1}`). */
export const REF_PATTERN = /\{(image|video|audio|model3d|3d)#(\d{1,3})\}/g;

const KIND_OF: Partial<Record<InputType, RefKind>> = { image: "image", image_list: "image", video: "video", audio: "audio", model3d: "model3d" };
/** A medium's noun in the active language, e.g. "Image". */
const noun = (kind: RefKind) => i18n.t(`inputs.noun.${kind}`);

/** The media of an item that references can name, per kind and in order. */
export function mediaRefs(schema: Schema, item: Item): MediaRefs {
  const out: MediaRefs = {};
  for (const inp of visibleInputs(schema)) {
    const kind = KIND_OF[inp.type];
    const v = item.inputs[inp.name];
    if (!kind || v == null) continue;
    const list = inp.type === "image_list" ? (Array.isArray(v) ? v : [v]) : [v];
    const label = inp.label || inp.name;
    list.forEach((ref, i) => (out[kind] ??= []).push({ input: inp.name, label: list.length > 1 ? `${label}, ${i + 1}` : label, ref: ref as MediaRef }));
  }
  return out;
}

export const MediaRefsContext = createContext<MediaRefs>({});

/** What a reference names: its kind, its 1-based number and the medium when the item has it. */
export function resolveRef(refs: MediaRefs, kind: string, n: number): { kind: RefKind; n: number; target?: RefTarget } {
  const k: RefKind = kind === "3d" ? "model3d" : (kind as RefKind);
  return { kind: k, n, target: refs[k]?.[n - 1] };
}

/** The text with each reference replaced by what it points to, for plain-text places (Markdown). */
export function refsAsText(text: string, refs: MediaRefs): string {
  return text.replace(REF_PATTERN, (_m, kind: string, n: string) => {
    const r = resolveRef(refs, kind, Number(n));
    return `[${noun(r.kind)} ${r.n}${r.target ? `: ${r.target.label}` : ""}]`;
  });
}

/** Text with its references shown as chips that bring the medium into view. */
export function WithRefs({ text }: { text: string }) {
  const refs = useContext(MediaRefsContext);
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(REF_PATTERN)) {
    const at = m.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(<RefChip key={at} {...resolveRef(refs, m[1], Number(m[2]))} />);
    last = at + m[0].length;
  }
  if (parts.length === 0) return <>{text}</>;
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

function RefChip({ kind, n, target }: { kind: RefKind; n: number; target?: RefTarget }) {
  const { t } = useTranslation();
  const name = `${noun(kind)} ${n}`;
  if (!target) {
    return (
      <span className="media-ref missing" title={t("inputs.noSuchMedium")}>
        {name}
      </span>
    );
  }
  const show = () => {
    const el = [...document.querySelectorAll<HTMLElement>(".inputs-pane [data-input]")].find((e) => e.dataset.input === target.input);
    el?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  };
  return (
    <button type="button" tabIndex={-1} className="media-ref" onClick={show} title={t("inputs.showIt", { label: target.label })} data-ref={`${kind}#${n}`}>
      {kind === "image" && <RefThumb src={target.ref} />}
      {name}
    </button>
  );
}

function RefThumb({ src }: { src: MediaRef }) {
  const { url } = useMediaUrl(src);
  return url ? <img src={url} alt="" /> : null;
}
