import { useId, useState, type InputHTMLAttributes } from "react";
import { splitLanguages } from "../../../components/languages";
import { fieldError, fieldShown, fieldValue, ownsError, POLICY_FIELDS, POLICY_GROUPS, setPath, type PolicyContext, type PolicyDraft, type PolicyField } from "./policyFields";
import "./setup.css";

interface Props {
  value: PolicyDraft;
  onChange: (p: PolicyDraft) => void;
  /** The schema and forms the policy is for (criteria choices come from them). */
  context: PolicyContext;
  /** Problems keyed as the server sends them: "workflow.<path>". */
  errors?: Record<string, string>;
  disabled?: boolean;
}

/**
 * The workflow policy as a form, one control per entry of POLICY_GROUPS with
 * its one-line explanation. Used by the new-project wizard and the Settings tab.
 */
export function PolicyForm({ value, onChange, context, errors = {}, disabled }: Props) {
  return (
    <div className="policy-form" data-testid="policy-form">
      {POLICY_GROUPS.map((g) => {
        const shown = g.fields.filter((f) => fieldShown(f, value, context));
        if (shown.length === 0) return null;
        return (
          <fieldset key={g.title} className="policy-group" disabled={disabled}>
            <legend>{g.title}</legend>
            {shown.map((f) => (
              <PolicyControl key={f.path} field={f} policy={value} context={context} error={fieldError(errors, f)} onChange={onChange} />
            ))}
          </fieldset>
        );
      })}
      {Object.entries(errors)
        .filter(([k]) => k === "workflow" || (k.startsWith("workflow.") && !POLICY_FIELDS.some((f) => ownsError(f, k))))
        .map(([k, msg]) => (
          <p key={k} className="field-error" role="alert">
            <code>{k}</code>: {msg}
          </p>
        ))}
    </div>
  );
}

interface ControlProps {
  field: PolicyField;
  policy: PolicyDraft;
  context: PolicyContext;
  error?: string;
  onChange: (p: PolicyDraft) => void;
}

function PolicyControl({ field: f, policy, context, error, onChange }: ControlProps) {
  const id = useId();
  const set = (v: unknown) => onChange(setPath(policy, f.path, v));
  const v = fieldValue(policy, f);
  const describedBy = `${id}-help${error ? ` ${id}-error` : ""}`;
  const common = { id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined };
  let control;
  switch (f.kind) {
    case "boolean":
    case "section": {
      const on = f.kind === "boolean" ? v === true : v !== undefined && v !== null;
      control = (
        <input
          type="checkbox"
          {...common}
          checked={on}
          onChange={(e) => set(f.kind === "boolean" ? e.target.checked : e.target.checked ? f.enable(context) : undefined)}
        />
      );
      return (
        <div className={`policy-field policy-check${f.kind === "section" ? " policy-section" : ""}`} data-field={f.path}>
          <label className="check" htmlFor={id}>
            {control}
            <span>{f.label}</span>
          </label>
          <small id={`${id}-help`} className="field-hint">
            {f.help}
          </small>
          {error && (
            <small id={`${id}-error`} className="field-error">
              {error}
            </small>
          )}
        </div>
      );
    }
    case "integer":
      control = <NumberInput {...common} value={Number(v)} min={f.min} max={f.max} onValue={set} />;
      if (f.unit) control = <span className="policy-unit">{control} <span className="muted">{f.unit}</span></span>;
      break;
    case "percent":
      control = (
        <span className="policy-unit">
          <NumberInput {...common} value={Math.round(Number(v) * 1000) / 10} min={0} max={100} step={0.1} onValue={(n) => set(n === undefined ? undefined : n / 100)} />{" "}
          <span className="muted">%</span>
        </span>
      );
      break;
    case "select": {
      const choices = typeof f.choices === "function" ? f.choices(context, policy) : f.choices;
      const cur = String(v ?? "");
      control = (
        <select {...common} value={cur} onChange={(e) => set(e.target.value)}>
          {!choices.some((c) => c.value === cur) && <option value={cur}>{cur || "—"}</option>}
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      );
      break;
    }
    case "text":
      control = <input type="text" {...common} value={String(v ?? "")} onChange={(e) => set(e.target.value)} />;
      break;
    case "list":
      control = <ListInput {...common} value={(v as string[] | undefined) ?? []} placeholder={f.placeholder} onValue={(l) => set(l.length > 0 ? l : undefined)} />;
      break;
  }
  return (
    <div className="policy-field" data-field={f.path}>
      <label htmlFor={id}>{f.label}</label>
      <div className="policy-control">
        {control}
        <small id={`${id}-help`} className="field-hint">
          {f.help}
        </small>
        {error && (
          <small id={`${id}-error`} className="field-error">
            {error}
          </small>
        )}
      </div>
    </div>
  );
}

type ListInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange"> & {
  value: string[];
  onValue: (l: string[]) => void;
};

/** A comma-separated list box that keeps the text as typed; the policy gets the list. */
function ListInput({ value, onValue, ...rest }: ListInputProps) {
  const joined = value.join(", ");
  const [text, setText] = useState(joined);
  const [seen, setSeen] = useState(joined);
  if (seen !== joined) {
    // note: the policy changed from outside (a reset, the server's canonical form); show it unless the text already says it
    setSeen(joined);
    if (splitLanguages(text).join(", ") !== joined) setText(joined);
  }
  return (
    <input
      type="text"
      {...rest}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onValue(splitLanguages(e.target.value));
      }}
    />
  );
}

type NumberInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange"> & {
  value: number;
  onValue: (n: number | undefined) => void;
};

/** A number box that lets the text be cleared while typing; the policy gets numbers only. */
function NumberInput({ value, onValue, ...rest }: NumberInputProps) {
  const [text, setText] = useState(String(value));
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    // note: the policy changed from outside (a reset, the server's defaults); show it unless the text already says it
    setSeen(value);
    if (text === "" || Number(text) !== value) setText(String(value));
  }
  return (
    <input
      type="number"
      inputMode="decimal"
      className="policy-number"
      {...rest}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        if (e.target.value !== "" && Number.isFinite(Number(e.target.value))) onValue(Number(e.target.value));
      }}
      onBlur={() => setText(String(value))}
    />
  );
}
