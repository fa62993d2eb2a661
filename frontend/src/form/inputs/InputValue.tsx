import { useContext, useState } from "react";
import { ImageViewer } from "../../media/ImageViewer";
import { ImageGallery } from "../../media/ImageGallery";
import { VideoPlayer } from "../../media/VideoPlayer";
import { AudioPlayer } from "../../media/AudioPlayer";
import { ModelViewer } from "../../media/ModelViewer";
import { Markdown } from "../Markdown";
import type { InputType, MediaRef } from "../../api";
import { MediaRefsContext, refsAsText, WithRefs } from "./mediaRefs";

/** Renders one value by its type; candidates use it for each response. */
export function InputValue({ type, value, label }: { type: InputType; value: unknown; label: string }) {
  if (value === undefined || value === null) return <p className="muted input-missing">Not provided for this item.</p>;
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

/** Plain text with its media references as chips, whitespace kept; long text folds with a "Show all" toggle. */
function LongText({ text }: { text: string }) {
  const long = text.length > 1200;
  const [open, setOpen] = useState(false);
  return (
    <div className={long && !open ? "input-text folded" : "input-text"}>
      <p>
        <WithRefs text={text} />
      </p>
      {long && (
        <button type="button" className="link-btn" tabIndex={-1} onClick={() => setOpen(!open)}>
          {open ? "Show less" : `Show all (${text.length.toLocaleString()} characters)`}
        </button>
      )}
    </div>
  );
}

/** JSON, pretty-printed; strings holding JSON are parsed first. */
export function JsonView({ value }: { value: unknown }) {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      // Not JSON: show as is.
    }
  }
  return <pre className="input-json">{typeof v === "string" ? v : JSON.stringify(v, null, 2)}</pre>;
}
