import { createContext, useContext, useEffect, useEffectEvent, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { useMediaUrl } from "./resolve";
import type { MediaRef } from "../api";
import { useTranslation } from "react-i18next";

/** A zoom and pan state: scale and offset in CSS pixels. */
export interface View {
  s: number;
  x: number;
  y: number;
}
const FIT: View = { s: 1, x: 0, y: 0 };
const MIN = 1;
const MAX = 16;

/** When provided and on, every viewer inside shares one zoom and pan, for side-by-side comparison. */
export const ZoomSyncContext = createContext<{ view: View; setView: (v: View) => void } | null>(null);

/** Zooms v by factor around point (px, py) of the frame. */
export function zoomAt(v: View, factor: number, px: number, py: number): View {
  const s = Math.min(MAX, Math.max(MIN, v.s * factor));
  if (s === MIN) return FIT;
  const k = s / v.s;
  return { s, x: px - (px - v.x) * k, y: py - (py - v.y) * k };
}

/** An image with zoom (buttons, Ctrl+wheel, double-click, +/-), pan (drag, arrows) and reset (0). */
export function ImageViewer({ src, alt, compact }: { src: MediaRef; alt: string; compact?: boolean }) {
  const { t } = useTranslation();
  const { url, error } = useMediaUrl(src);
  const sync = useContext(ZoomSyncContext);
  const [own, setOwn] = useState<View>(FIT);
  const view = sync ? sync.view : own;
  const setView = sync ? sync.setView : setOwn;
  const frame = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; v: View } | null>(null);

  const center = () => {
    const r = frame.current?.getBoundingClientRect();
    return r ? [r.width / 2, r.height / 2] : [0, 0];
  };
  const zoomBy = (f: number) => setView(zoomAt(view, f, center()[0], center()[1]));

  const wheel = useEffectEvent((e: globalThis.WheelEvent, el: HTMLElement) => {
    if (!e.ctrlKey && !e.metaKey && view.s === 1) return;
    e.preventDefault();
    const r = el.getBoundingClientRect();
    setView(zoomAt(view, Math.exp(-e.deltaY / 300), e.clientX - r.left, e.clientY - r.top));
  });
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    // note: a native listener, because React's wheel listeners are passive and cannot stop page scroll.
    const onWheel = (e: globalThis.WheelEvent) => wheel(e, el);
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, [url]);
  function onDoubleClick(e: React.MouseEvent) {
    const r = e.currentTarget.getBoundingClientRect();
    setView(view.s > 1 ? FIT : zoomAt(view, 3, e.clientX - r.left, e.clientY - r.top));
  }
  function onPointerDown(e: PointerEvent) {
    if (view.s === 1) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, v: view };
  }
  function onPointerMove(e: PointerEvent) {
    const d = drag.current;
    if (d) setView({ ...d.v, x: d.v.x + e.clientX - d.x, y: d.v.y + e.clientY - d.y });
  }
  function onKeyDown(e: KeyboardEvent) {
    const pan: Record<string, [number, number]> = {
      ArrowLeft: [40, 0],
      ArrowRight: [-40, 0],
      ArrowUp: [0, 40],
      ArrowDown: [0, -40],
    };
    if (e.key === "+" || e.key === "=") zoomBy(1.5);
    else if (e.key === "-") zoomBy(1 / 1.5);
    else if (e.key === "0") setView(FIT);
    else if (pan[e.key] && view.s > 1) setView({ ...view, x: view.x + pan[e.key][0], y: view.y + pan[e.key][1] });
    else return;
    e.preventDefault();
    e.stopPropagation();
  }

  if (error || !url) return <div className="media-error">{t("media.imageUnavailable")}</div>;
  return (
    <figure className={compact ? "image-viewer compact" : "image-viewer"}>
      <div
        ref={frame}
        className={view.s > 1 ? "image-frame zoomed" : "image-frame"}
        tabIndex={0}
        data-media-keys="image"
        aria-label={t("media.imageFrame", { alt, zoom: Math.round(view.s * 100) })}
        onDoubleClick={onDoubleClick}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onKeyDown={onKeyDown}
      >
        <img
          src={url}
          alt={alt}
          draggable={false}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.s})` }}
          className={view.s > 2 ? "pixelated" : undefined}
        />
      </div>
      <div className="media-bar" aria-label={t("media.zoom")}>
        <button type="button" className="mbtn" tabIndex={-1} onClick={() => zoomBy(1 / 1.5)} aria-label={t("media.zoomOut")}>
          −
        </button>
        <span className="mbar-value">{Math.round(view.s * 100)}%</span>
        <button type="button" className="mbtn" tabIndex={-1} onClick={() => zoomBy(1.5)} aria-label={t("media.zoomIn")}>
          +
        </button>
        <button type="button" className="mbtn" tabIndex={-1} onClick={() => setView(FIT)} disabled={view.s === 1}>
          {t("media.fit")}
        </button>
        <a className="mbtn" tabIndex={-1} href={url} target="_blank" rel="noreferrer noopener">
          {t("media.open")}
        </a>
      </div>
    </figure>
  );
}
