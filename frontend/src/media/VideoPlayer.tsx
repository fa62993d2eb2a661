import { useRef } from "react";
import { useMediaUrl } from "./resolve";
import { TransportBar, transportKey, useTransport } from "./controls";
import type { MediaRef } from "../api";

/** A video with its audio, frame stepping (±1/30 s) and speed. Focus it for space, , . [ ] ← → m. */
export function VideoPlayer({ src, label }: { src: MediaRef; label: string }) {
  const { url, error } = useMediaUrl(src);
  const ref = useRef<HTMLVideoElement>(null);
  const t = useTransport(ref, url);
  if (error || !url) return <div className="media-error">Video unavailable</div>;
  return (
    <div
      className="player video-player"
      tabIndex={0}
      data-media-keys="video"
      aria-label={`${label}: video player. Space plays or pauses, comma and period step one frame, brackets change speed.`}
      onKeyDown={(e) => transportKey(t, e, true)}
    >
      <video ref={ref} src={url} preload="metadata" playsInline onClick={t.toggle} />
      <TransportBar t={t} frames />
    </div>
  );
}
