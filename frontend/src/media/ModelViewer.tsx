import { createElement, useEffect, useState } from "react";
import { useMediaUrl } from "./resolve";
import type { MediaRef } from "../api";

/** A GLB model in <model-viewer>: drag to orbit, scroll or pinch to zoom, arrows when focused. */
export function ModelViewer({ src, label }: { src: MediaRef; label: string }) {
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
  if (error || !url) return <div className="media-error">3D model unavailable</div>;
  return (
    <div className="player model-player" data-media-keys="model">
      {ready ? (
        createElement("model-viewer", {
          key: view,
          src: url,
          alt: label,
          "camera-controls": true,
          "touch-action": "pan-y",
          "shadow-intensity": "1",
          exposure: "1",
          "interaction-prompt": "none",
          class: "model-viewer",
          tabIndex: 0,
        })
      ) : (
        <div className="model-viewer loading">Loading 3D viewer…</div>
      )}
      <div className="media-bar">
        <span className="mbar-value">Drag to orbit · scroll to zoom · right-drag to pan</span>
        <button type="button" className="mbtn" tabIndex={-1} onClick={() => setView((v) => v + 1)}>
          Reset view
        </button>
        <a className="mbtn" tabIndex={-1} href={url} download>
          Download
        </a>
      </div>
    </div>
  );
}
