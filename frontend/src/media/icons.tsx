// Small inline icons for the media controls (no icon font or emoji needed).
const svg = (d: string) =>
  function Icon() {
    return (
      <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
        <path d={d} />
      </svg>
    );
  };

export const PlayIcon = svg("M4 2.5v11l9-5.5z");
export const PauseIcon = svg("M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z");
export const VolumeIcon = svg("M2 6h3l4-3.5v11L5 10H2zM11 5.2a4 4 0 0 1 0 5.6l-.9-.9a2.7 2.7 0 0 0 0-3.8zM12.8 3.4a6.5 6.5 0 0 1 0 9.2l-.9-.9a5.2 5.2 0 0 0 0-7.4z");
export const MuteIcon = svg("M2 6h3l4-3.5v11L5 10H2zM10.5 5.5l1.8 1.8 1.8-1.8.9.9-1.8 1.8 1.8 1.8-.9.9-1.8-1.8-1.8 1.8-.9-.9 1.8-1.8-1.8-1.8z");
