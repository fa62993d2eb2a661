import { useId, useState } from "react";
import { Markdown } from "../../../form/Markdown";

interface Props {
  value: string;
  onChange: (text: string) => void;
  error?: string;
  disabled?: boolean;
}

/** Markdown guidelines with a preview through the sanitizing renderer the forms use. */
export function GuidelinesEditor({ value, onChange, error, disabled }: Props) {
  const id = useId();
  const [preview, setPreview] = useState(false);
  return (
    <div className="field guidelines-editor">
      <div className="row guidelines-head">
        <label htmlFor={id}>Guidelines</label>
        <div className="segmented segmented-sm" role="tablist" aria-label="Guidelines view">
          <button type="button" role="tab" aria-selected={!preview} className={preview ? "segment" : "segment on"} onClick={() => setPreview(false)}>
            Write
          </button>
          <button type="button" role="tab" aria-selected={preview} className={preview ? "segment on" : "segment"} onClick={() => setPreview(true)}>
            Preview
          </button>
        </div>
      </div>
      {preview ? (
        <div className="guidelines-preview" data-testid="guidelines-preview">
          {value.trim() ? <Markdown source={value} /> : <p className="muted">No guidelines yet.</p>}
        </div>
      ) : (
        <textarea id={id} rows={8} value={value} disabled={disabled} aria-describedby={`${id}-hint`} onChange={(e) => onChange(e.target.value)} />
      )}
      <small id={`${id}-hint`} className="field-hint">
        Markdown, shown to everyone who works on the project.
      </small>
      {error && <small className="field-error">{error}</small>}
    </div>
  );
}
