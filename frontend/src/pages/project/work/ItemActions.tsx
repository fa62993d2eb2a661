import type { FlagCategory } from "../../../api";
import { ActionDialog } from "./ActionDialog";
import { usePageKeys } from "./usePageKeys";
import type { WorkSession } from "./useWorkSession";
import { useTranslation } from "react-i18next";

export type ItemDialog = "skip" | "flag" | null;

interface Props {
  session: WorkSession;
  aid: string;
  dialog: ItemDialog;
  onDialog: (d: ItemDialog) => void;
}

/** Skip and flag the item on screen: buttons, Shift+S and Shift+F, and the dialog that asks why. */
export function ItemActions({ session, aid, dialog, onDialog }: Props) {
  const { t } = useTranslation();
  usePageKeys(
    [
      { key: "S", shift: true, run: () => onDialog("skip") },
      { key: "F", shift: true, run: () => onDialog("flag") },
    ],
    !dialog && session.status === "ready",
  );
  const done = () => onDialog(null);
  return (
    <>
      <button type="button" className="btn btn-sm" onClick={() => onDialog("skip")} disabled={session.busy}>
        {t("work.skip")} <kbd className="kbd">Shift+S</kbd>
      </button>
      <button type="button" className="btn btn-sm" onClick={() => onDialog("flag")} disabled={session.busy}>
        {t("work.flag")} <kbd className="kbd">Shift+F</kbd>
      </button>
      {dialog && (
        <ActionDialog
          kind={dialog}
          busy={session.busy}
          onCancel={done}
          onSkip={(reason) => void session.skip(aid, reason).finally(done)}
          onFlag={(category: FlagCategory, reason) => void session.flag(aid, category, reason).finally(done)}
        />
      )}
    </>
  );
}
