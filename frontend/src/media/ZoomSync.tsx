import { useState, type ReactNode } from "react";
import { ZoomSyncContext, type View } from "./ImageViewer";
import { useTranslation } from "react-i18next";

/** Links the zoom and pan of the image viewers inside it while `on`. */
export function ZoomSync({ on, children }: { on: boolean; children: ReactNode }) {
  const [view, setView] = useState<View>({ s: 1, x: 0, y: 0 });
  return <ZoomSyncContext.Provider value={on ? { view, setView } : null}>{children}</ZoomSyncContext.Provider>;
}

/** The "Link zoom" switch shown above side-by-side images. */
export function SyncToggle({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <label className="sync-toggle">
      <input type="checkbox" tabIndex={-1} checked={on} onChange={(e) => onChange(e.target.checked)} /> {t("media.linkZoom")}
    </label>
  );
}
