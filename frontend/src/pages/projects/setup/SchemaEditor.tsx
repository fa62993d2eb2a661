import { useId } from "react";
import type { ParsedSchema } from "./schemaText";

interface Props {
  text: string;
  onText: (text: string) => void;
  parsed: ParsedSchema | null;
  /** The server's problems with the schema and its forms, by path. */
  problems: { path: string; message: string }[];
  checking: boolean;
  /** The server accepted the schema. */
  valid: boolean;
}

const PLACEHOLDER = `# YAML or JSON, e.g.
version: 1
inputs:
  - {name: prompt, type: text, label: Prompt}
  - {name: image, type: image, label: Image}
questions:
  - {key: matches, kind: binary, label: Does the image match the prompt?, required: true}`;

/**
 * A schema typed, pasted or uploaded as YAML or JSON. Problems show under the
 * text while it is typed: a syntax error with its line, then the server's
 * problems at their paths (`schema.questions[1].kind`).
 */
export function SchemaEditor({ text, onText, parsed, problems, checking, valid }: Props) {
  const id = useId();
  async function upload(file: File | undefined) {
    if (file) onText(await file.text());
  }
  const syntax = parsed && !parsed.ok && text.trim() ? parsed : null;
  return (
    <div className="schema-editor stack">
      <div className="field">
        <label htmlFor={`${id}-file`}>Schema file</label>
        <input id={`${id}-file`} type="file" accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml" onChange={(e) => void upload(e.target.files?.[0])} />
        <small className="field-hint">A schema, or a template-like file with <code>schema</code>, <code>forms</code> and <code>guidelines</code> (see docs/tasks.md).</small>
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>Schema (YAML or JSON)</label>
        <textarea
          id={`${id}-text`}
          className="schema-text"
          rows={16}
          spellCheck={false}
          value={text}
          placeholder={PLACEHOLDER}
          aria-invalid={syntax || problems.length ? true : undefined}
          aria-describedby={`${id}-status`}
          onChange={(e) => onText(e.target.value)}
        />
      </div>
      <div id={`${id}-status`} className="schema-status" data-testid="schema-status" aria-live="polite">
        {syntax ? (
          <div className="notice notice-error" role="alert">
            <span className="notice-title">{syntax.line ? `Line ${syntax.line}, column ${syntax.column}: ` : ""}the text is not valid YAML or JSON</span>
            <span>{syntax.message}</span>
          </div>
        ) : problems.length > 0 ? (
          <div className="notice notice-error" role="alert">
            <span className="notice-title">
              {problems.length === 1 ? "1 problem" : `${problems.length} problems`} in the schema{checking ? " (checking again…)" : ""}
            </span>
            <ul className="schema-problems" aria-label="Schema problems">
              {problems.map((p) => (
                <li key={p.path} data-path={p.path}>
                  <code>{p.path}</code> {p.message}
                </li>
              ))}
            </ul>
          </div>
        ) : checking ? (
          <p className="muted">Checking…</p>
        ) : valid ? (
          <div className="notice notice-success" role="status">
            The server accepts this schema.
          </div>
        ) : null}
      </div>
    </div>
  );
}
