import { useState, type ReactNode } from "react";

/** A secret shown once after it is made (a token, a signing secret), with a copy button. */
export function ShownOnce({ title, value, testId, onDismiss }: { title: ReactNode; value: string; testId: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className="notice notice-success token-once" role="status">
      <strong className="notice-title">{title}</strong>
      <span>Copy it now — it will not be shown again.</span>
      <div className="row">
        <code className="token-value" data-testid={testId}>
          {value}
        </code>
        <button type="button" className="btn btn-sm" onClick={copy}>
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className="btn btn-sm btn-ghost" onClick={onDismiss}>
          Done
        </button>
      </div>
    </div>
  );
}
