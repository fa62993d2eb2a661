import type { CreatedPersonalToken } from "../../api";
import { ShownOnce } from "../../components/ShownOnce";

/** Shows a freshly created token once, with a copy button. */
export function NewTokenNotice({ token, onDismiss }: { token: CreatedPersonalToken; onDismiss: () => void }) {
  return <ShownOnce title={`Token “${token.name}” created.`} value={token.token} testId="new-token" onDismiss={onDismiss} />;
}
