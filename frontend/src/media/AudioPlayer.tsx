import { useEffect, useRef, useState } from "react";
import { useMediaUrl } from "./resolve";
import { TransportBar, transportKey, useTransport } from "./controls";
import type { MediaRef } from "../api";
import { useTranslation } from "react-i18next";

/**
 * Audio with a waveform (wavesurfer.js drawn over our own <audio> element,
 * so the controls keep working if the waveform cannot be drawn), click to
 * seek, and speed. Focus it for space, [ ] ← → m.
 */
export function AudioPlayer({ src, label }: { src: MediaRef; label: string }) {
  const { t: tr } = useTranslation();
  const { url, error } = useMediaUrl(src);
  const audio = useRef<HTMLAudioElement>(null);
  const wave = useRef<HTMLDivElement>(null);
  const [waveFailed, setWaveFailed] = useState(false);
  const t = useTransport(audio, url);

  useEffect(() => {
    if (!url || !audio.current || !wave.current) return;
    let ws: { destroy(): void } | null = null;
    let cancelled = false;
    import("wavesurfer.js")
      .then(({ default: WaveSurfer }) => {
        if (cancelled || !wave.current || !audio.current) return;
        ws = WaveSurfer.create({
          container: wave.current,
          media: audio.current,
          height: 64, // note: the server's CSP allows this waveform's style by its hash (backend/api/headers.go)
          waveColor: "#9aa9d6",
          progressColor: "#3b5bdb",
          cursorColor: "#1b1f24",
          barWidth: 2,
          barGap: 1,
          barRadius: 2,
          normalize: true,
        });
      })
      .catch(() => setWaveFailed(true));
    return () => {
      cancelled = true;
      ws?.destroy();
    };
  }, [url]);

  if (error || !url) return <div className="media-error">{tr("media.audioUnavailable")}</div>;
  return (
    <div
      className="player audio-player"
      tabIndex={0}
      data-media-keys="audio"
      aria-label={tr("media.audioPlayer", { label })}
      onKeyDown={(e) => transportKey(t, e, false)}
    >
      <audio ref={audio} src={url} preload="auto" />
      <div ref={wave} className="waveform" onClick={() => undefined}>
        {waveFailed && <div className="media-error">{tr("media.waveformUnavailable")}</div>}
      </div>
      <TransportBar t={t} frames={false} />
    </div>
  );
}
