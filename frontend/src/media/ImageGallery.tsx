import { useState, type KeyboardEvent } from "react";
import { ImageViewer } from "./ImageViewer";
import { SyncToggle, ZoomSync } from "./ZoomSync";
import type { MediaRef } from "../api";
import { useMediaUrl } from "./resolve";
import { useTranslation } from "react-i18next";

/**
 * Several images (e.g. multi-view renders): side by side with linked zoom,
 * or one at a time with thumbnails (← → when focused).
 */
export function ImageGallery({ images, label }: { images: MediaRef[]; label: string }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<"grid" | "one">(images.length > 4 ? "one" : "grid");
  const [at, setAt] = useState(0);
  const [linked, setLinked] = useState(true);
  const i = Math.min(at, images.length - 1);
  function onKeyDown(e: KeyboardEvent) {
    if (mode !== "one" || e.target !== e.currentTarget) return;
    if (e.key === "ArrowLeft") setAt((i - 1 + images.length) % images.length);
    else if (e.key === "ArrowRight") setAt((i + 1) % images.length);
    else return;
    e.preventDefault();
    e.stopPropagation();
  }
  return (
    <div className="gallery" tabIndex={-1} data-media-keys="gallery" onKeyDown={onKeyDown}>
      <div className="gallery-bar">
        <span className="muted">{t("media.images", { count: images.length })}</span>
        <div className="seg" role="group" aria-label={t("media.layout")}>
          <button type="button" tabIndex={-1} className={mode === "grid" ? "on" : ""} onClick={() => setMode("grid")}>
            {t("media.grid")}
          </button>
          <button type="button" tabIndex={-1} className={mode === "one" ? "on" : ""} onClick={() => setMode("one")}>
            {t("media.single")}
          </button>
        </div>
        {mode === "grid" && <SyncToggle on={linked} onChange={setLinked} />}
      </div>
      {mode === "grid" ? (
        <ZoomSync on={linked}>
          <div className="gallery-grid">
            {images.map((img, j) => (
              <ImageViewer key={j} src={img} alt={`${label} ${j + 1}`} compact />
            ))}
          </div>
        </ZoomSync>
      ) : (
        <>
          <ImageViewer key={i} src={images[i]} alt={t("media.imageOf", { label, n: i + 1, count: images.length })} />
          <div className="thumbs">
            {images.map((img, j) => (
              <Thumb key={j} src={img} on={j === i} onClick={() => setAt(j)} n={j + 1} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}

function Thumb({ src, on, onClick, n }: { src: MediaRef; on: boolean; onClick: () => void; n: number }) {
  const { t } = useTranslation();
  const { url } = useMediaUrl(src);
  return (
    <button type="button" tabIndex={-1} className={on ? "thumb on" : "thumb"} onClick={onClick} aria-label={t("media.imageN", { n })}>
      {url ? <img src={url} alt="" /> : n}
    </button>
  );
}
