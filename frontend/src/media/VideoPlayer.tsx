import { useRef } from "react";
import { useMediaUrl } from "./resolve";
import { TransportBar, transportKey, useTransport } from "./controls";
import type { MediaRef } from "../api";
import { useTranslation } from "react-i18next";

/** A video with its audio, frame stepping (±1/30 s) and speed. Focus it for space, , . [ ] ← → m. */
export function VideoPlayer({ src, label }: { src: MediaRef; label: string }) {
  const { t: tr } = useTranslation();
  const { url, error } = useMediaUrl(src);
  const ref = useRef<HTMLVideoElement>(null);
  const t = useTransport(ref, url);
  if (error || !url) return <div className="media-error">{tr("media.videoUnavailable")}</div>;
  return (
    <div
      className="player video-player"
      tabIndex={0}
      data-media-keys="video"
      aria-label={tr("media.videoPlayer", { label })}
      onKeyDown={(e) => transportKey(t, e, true)}
    >
      <video ref={ref} src={url} preload="metadata" playsInline onClick={t.toggle} />
      <TransportBar t={t} frames />
    </div>
  );
}
