// Shared transport for video and audio: play/pause, seek, ±1 frame,
// playback speed, mute, and the keys a focused player answers to.
import { useEffect, useState, type KeyboardEvent, type RefObject } from "react";
import { MuteIcon, PauseIcon, PlayIcon, VolumeIcon } from "./icons";
import { useTranslation } from "react-i18next";

export const FRAME = 1 / 30;
export const SPEEDS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2];

export function formatTime(t: number): string {
  if (!Number.isFinite(t) || t < 0) t = 0;
  const m = Math.floor(t / 60);
  const s = t - m * 60;
  return `${m}:${s.toFixed(2).padStart(5, "0")}`;
}

interface MediaState {
  paused: boolean;
  time: number;
  duration: number;
  rate: number;
  muted: boolean;
}
const NOTHING_LOADED: MediaState = { paused: true, time: 0, duration: 0, rate: 1, muted: false };
const MEDIA_EVENTS = ["play", "pause", "timeupdate", "seeked", "ratechange", "volumechange", "loadedmetadata", "durationchange", "ended", "emptied"];
const durationOf = (m: HTMLMediaElement) => (Number.isFinite(m.duration) ? m.duration : 0);

/** Tracks a media element's state (from its events) and exposes the transport actions. */
export function useTransport(ref: RefObject<HTMLMediaElement | null>, src: string | null) {
  const [state, setState] = useState<MediaState>(NOTHING_LOADED);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => setState({ paused: el.paused, time: el.currentTime, duration: durationOf(el), rate: el.playbackRate, muted: el.muted });
    MEDIA_EVENTS.forEach((e) => el.addEventListener(e, read));
    return () => MEDIA_EVENTS.forEach((e) => el.removeEventListener(e, read));
  }, [ref, src]);
  // note: the actions read the element when they run, so a player answers keys before any media event.
  const seek = (t: number) => {
    const m = ref.current;
    if (m) m.currentTime = Math.min(Math.max(0, t), durationOf(m) || t);
  };
  const actions = {
    toggle: () => {
      const m = ref.current;
      if (!m) return;
      if (m.paused) void m.play().catch(() => {});
      else m.pause();
    },
    step: (frames: number) => {
      const m = ref.current;
      if (!m) return;
      m.pause();
      seek(m.currentTime + frames * FRAME);
    },
    seek,
    seekBy: (dt: number) => {
      const m = ref.current;
      if (m) seek(m.currentTime + dt);
    },
    speed: (r: number) => {
      const m = ref.current;
      if (m) m.playbackRate = r;
    },
    speedBy: (dir: number) => {
      const m = ref.current;
      if (!m) return;
      const i = SPEEDS.indexOf(m.playbackRate);
      m.playbackRate = SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, (i < 0 ? 3 : i) + dir))];
    },
    mute: () => {
      const m = ref.current;
      if (m) m.muted = !m.muted;
    },
  };
  return { ...state, ...actions };
}
export type Transport = ReturnType<typeof useTransport>;

/** Keys of a focused player; returns true when the key was used. */
export function transportKey(t: Transport, e: KeyboardEvent, frames: boolean): boolean {
  const map: Record<string, () => void> = {
    " ": t.toggle,
    k: t.toggle,
    ArrowLeft: () => t.seekBy(-5),
    ArrowRight: () => t.seekBy(5),
    "[": () => t.speedBy(-1),
    "]": () => t.speedBy(1),
    m: t.mute,
  };
  if (frames) {
    map[","] = () => t.step(-1);
    map["."] = () => t.step(1);
  }
  const fn = e.ctrlKey || e.metaKey || e.altKey ? undefined : map[e.key];
  if (!fn) return false;
  e.preventDefault();
  e.stopPropagation();
  fn();
  return true;
}

/** The control bar under a player. */
export function TransportBar({ t, frames }: { t: Transport; frames: boolean }) {
  const { t: tr } = useTranslation();
  return (
    <div className="media-bar transport">
      <button type="button" className="mbtn play" tabIndex={-1} onClick={t.toggle} aria-label={t.paused ? tr("media.play") : tr("media.pause")}>
        {t.paused ? <PlayIcon /> : <PauseIcon />}
      </button>
      {frames && (
        <>
          <button type="button" className="mbtn" tabIndex={-1} onClick={() => t.step(-1)} aria-label={tr("media.previousFrame")} title={tr("media.previousFrameTitle")}>
            ‹1f
          </button>
          <button type="button" className="mbtn" tabIndex={-1} onClick={() => t.step(1)} aria-label={tr("media.nextFrame")} title={tr("media.nextFrameTitle")}>
            1f›
          </button>
        </>
      )}
      <input
        className="seek"
        type="range"
        tabIndex={-1}
        min={0}
        max={t.duration || 0}
        step={0.001}
        value={Math.min(t.time, t.duration || 0)}
        onChange={(e) => t.seek(Number(e.target.value))}
        aria-label={tr("media.seek")}
      />
      <span className="mbar-value time">
        {formatTime(t.time)} / {formatTime(t.duration)}
      </span>
      <select className="speed" tabIndex={-1} value={t.rate} onChange={(e) => t.speed(Number(e.target.value))} aria-label={tr("media.speed")}>
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </select>
      <button type="button" className="mbtn" tabIndex={-1} onClick={t.mute} aria-label={t.muted ? tr("media.unmute") : tr("media.mute")}>
        {t.muted ? <MuteIcon /> : <VolumeIcon />}
      </button>
    </div>
  );
}
