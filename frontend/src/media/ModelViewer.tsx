import { createElement, useEffect, useState } from "react";
import { useMediaUrl } from "./resolve";
import type { MediaRef } from "../api";
import { useTranslation } from "react-i18next";

const MODEL_VIEWER = "model-viewer";
const VIEWER_PROPS = {
  "camera-controls": true,
  "touch-action": "pan-y",
  "shadow-intensity": "1",
  exposure: "1",
  "interaction-prompt": "none",
  class: "model-viewer",
  tabIndex: 0,
};

/** A GLB model in <model-viewer>: drag to orbit, scroll or pinch to zoom, arrows when focused. */
export function ModelViewer({ src, label }: { src: MediaRef; label: string }) {
  const { t } = useTranslation();
  const { url, error } = useMediaUrl(src);
  const [ready, setReady] = useState(false);
  const [view, setView] = useState(0);
  useEffect(() => {
    let live = true;
    import("@google/model-viewer")
      .then(() => live && setReady(true))
      .catch(() => live && setReady(false));
    return () => {
      live = false;
    };
  }, []);
  if (error || !url) return <div className="media-error">{t("media.modelUnavailable")}</div>;
  return (
    <div className="player model-player" data-media-keys="model">
      {ready ? (
        createElement(MODEL_VIEWER, { ...VIEWER_PROPS, key: view, src: url, alt: label })
      ) : (
        <div className="model-viewer loading">{t("media.loadingModel")}</div>
      )}
      <div className="media-bar">
        <span className="mbar-value">{t("media.modelHelp")}</span>
        <button type="button" className="mbtn" tabIndex={-1} onClick={() => setView((v) => v + 1)}>
          {t("media.resetView")}
        </button>
        <a className="mbtn" tabIndex={-1} href={url} download>
          {t("media.download")}
        </a>
      </div>
    </div>
  );
}
