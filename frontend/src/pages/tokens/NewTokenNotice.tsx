import { useState } from "react";
import type { CreatedPersonalToken } from "../../api";

/** Shows a freshly created token once, with a copy button. */
export function NewTokenNotice({ token, onDismiss }: { token: CreatedPersonalToken; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className="notice notice-success token-once" role="status">
      <strong className="notice-title">Token “{token.name}” created.</strong>
      <span>Copy it now — it will not be shown again.</span>
      <div className="row">
        <code className="token-value" data-testid="new-token">
          {token.token}
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
