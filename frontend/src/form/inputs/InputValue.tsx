import { useContext, useState } from "react";
import { ImageViewer } from "../../media/ImageViewer";
import { ImageGallery } from "../../media/ImageGallery";
import { VideoPlayer } from "../../media/VideoPlayer";
import { AudioPlayer } from "../../media/AudioPlayer";
import { ModelViewer } from "../../media/ModelViewer";
import { Markdown } from "../Markdown";
import type { InputType, MediaRef } from "../../api";
import { MediaRefsContext, refsAsText, WithRefs } from "./mediaRefs";
import { useTranslation } from "react-i18next";

/** Renders one value by its type; candidates use it for each response. */
export function InputValue({ type, value, label }: { type: InputType; value: unknown; label: string }) {
  if (value === undefined || value === null) return <NotProvided />;
  switch (type) {
    case "text":
      return <LongText text={String(value)} />;
    case "markdown":
      return <MarkdownWithRefs source={String(value)} />;
    case "json":
      return <JsonView value={value} />;
    case "image":
      return <ImageViewer src={value as MediaRef} alt={label} />;
    case "image_list":
      return <ImageGallery images={Array.isArray(value) ? (value as MediaRef[]) : [value as MediaRef]} label={label} />;
    case "video":
      return <VideoPlayer src={value as MediaRef} label={label} />;
    case "audio":
      return <AudioPlayer src={value as MediaRef} label={label} />;
    case "model3d":
      return <ModelViewer src={value as MediaRef} label={label} />;
    default:
      return <JsonView value={value} />;
  }
}

/** Markdown whose media references read as the media's names. */
function MarkdownWithRefs({ source }: { source: string }) {
  const refs = useContext(MediaRefsContext);
  return <Markdown source={refsAsText(source, refs)} className="input-md" />;
}

function NotProvided() {
  const { t } = useTranslation();
  return <p className="muted input-missing">{t("inputs.notProvided")}</p>;
}

/** Plain text with its media references as chips, whitespace kept; long text folds with a "Show all" toggle. */
function LongText({ text }: { text: string }) {
  const { t, i18n } = useTranslation();
  const long = text.length > 1200;
  const [open, setOpen] = useState(false);
  return (
    <div className={long && !open ? "input-text folded" : "input-text"}>
      <p>
        <WithRefs text={text} />
      </p>
      {long && (
        <button type="button" className="link-btn" tabIndex={-1} onClick={() => setOpen(!open)}>
          {open ? t("inputs.showLess") : t("inputs.showAll", { n: text.length.toLocaleString(i18n.language) })}
        </button>
      )}
    </div>
  );
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string");

/** A key as a heading: "pa_checklist" reads "Pa checklist". */
const heading = (key: string) => {
  const words = key.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * JSON, pretty-printed; strings holding JSON are parsed first. A list of texts reads as a list,
 * and an object of such lists (a checklist per rubric) as a list under each key's heading.
 */
export function JsonView({ value }: { value: unknown }) {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      // Not JSON: show as is.
    }
  }
  if (isStringList(v)) return <TextList items={v} />;
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length > 0 && entries.every(([, x]) => isStringList(x))) {
      return (
        <div className="input-lists">
          {entries.map(([key, items]) => (
            <section key={key}>
              <h4>{heading(key)}</h4>
              <TextList items={items as string[]} />
            </section>
          ))}
        </div>
      );
    }
  }
  return <pre className="input-json">{typeof v === "string" ? v : JSON.stringify(v, null, 2)}</pre>;
}

function TextList({ items }: { items: string[] }) {
  return (
    <ol className="input-list">
      {items.map((t, i) => (
        <li key={i}>{t}</li>
      ))}
    </ol>
  );
}
