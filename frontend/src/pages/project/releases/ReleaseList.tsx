import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { releaseActive, releaseKeys, useReleasesApi, type Release, type ReleaseLinks } from "../../../api/releases";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";
import { formatDateTime } from "../../../components/format";
import { formatBytes } from "./options";

/** How often releases are polled while one is being written. */
export const RELEASE_POLL_MS = 1000;

/** The project's releases, newest first, polled while one is being written. */
export function ReleaseList({ pid, pollMs = RELEASE_POLL_MS, navigate = (url: string) => window.location.assign(url) }: {
  pid: string;
  pollMs?: number;
  navigate?: (url: string) => void;
}) {
  const api = useReleasesApi();
  const list = useQuery({
    queryKey: releaseKeys.list(pid),
    queryFn: () => api.list(pid),
    refetchInterval: (q) => (q.state.data?.some(releaseActive) ? pollMs : false),
  });
  if (list.isPending) return <Spinner />;
  if (list.isError) return <ErrorMessage error={list.error} />;
  if (list.data.length === 0) return <p className="muted">No releases yet.</p>;
  return (
    <ul className="release-list" aria-label="Releases">
      {list.data.map((r) => (
        <ReleaseRow key={r.id} pid={pid} release={r} navigate={navigate} />
      ))}
    </ul>
  );
}

function ReleaseRow({ pid, release: r, navigate }: { pid: string; release: Release; navigate: (url: string) => void }) {
  return (
    <li className="card release" data-release={r.id} data-status={r.status}>
      <div className="release-head">
        <strong>{r.name}</strong>
        <span className={`badge release-status release-${r.status}`}>{r.status}</span>
        <span className="muted">
          {r.formats.join(", ")} · {formatDateTime(r.created_at)}
        </span>
      </div>
      {r.media_links_expire_at && <LinksExpire at={r.media_links_expire_at} />}
      {releaseActive(r) && <ReleaseProgress release={r} />}
      {r.status === "failed" && (
        <div className="notice notice-error" role="alert">
          {r.error ?? "The release failed."} Start a new release to try again.
        </div>
      )}
      {r.status === "done" && r.summary && <Downloads pid={pid} release={r} navigate={navigate} />}
    </li>
  );
}

/** The warning of a release by reference: when its links to uploaded media stop working. */
function LinksExpire({ at }: { at: string }) {
  const when = formatDateTime(at);
  return (
    <div className="notice notice-warn" role="status">
      {new Date(at) > new Date()
        ? `Links to uploaded media in this release's files stop working on ${when}; release again with media copied to ship them.`
        : `Links to uploaded media in this release's files stopped working on ${when}.`}
    </div>
  );
}

function ReleaseProgress({ release: r }: { release: Release }) {
  const { records, total } = r.progress;
  const pct = total > 0 ? Math.min(100, Math.floor((records / total) * 100)) : 0;
  const text = r.status === "queued" ? "Waiting for the server to start the release…" : `${records.toLocaleString()} of ${total.toLocaleString()} items — ${pct}%`;
  return (
    <div className="upload" data-testid="release-progress">
      <div className="upload-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={`Release ${r.name}`}>
        <div style={{ width: `${pct}%` }} />
      </div>
      <span className="muted upload-text">{text}</span>
    </div>
  );
}

/** The manifest summary and the download links, signed on demand (valid 15 minutes). */
function Downloads({ pid, release: r, navigate }: { pid: string; release: Release; navigate: (url: string) => void }) {
  const api = useReleasesApi();
  const [links, setLinks] = useState<ReleaseLinks | null>(null);
  const [error, setError] = useState<unknown>(null);
  const s = r.summary!;
  const splits = Object.entries(s.by_split).map(([k, v]) => `${k} ${v.toLocaleString()}`).join(", ");
  const provenance = Object.entries(s.by_provenance).map(([k, v]) => `${k} ${v.toLocaleString()}`).join(", ");
  const languages = Object.entries(s.by_language ?? {}).map(([k, v]) => `${k === "und" ? "none" : k} ${v.toLocaleString()}`).join(", ");
  const t = s.tally;
  const leftOut = t.left_out.map((l) => `${l.kind.replace(/_/g, " ")}${l.reason ? ` (${l.reason})` : ""} ${l.items.toLocaleString()}`).join(", ");
  async function sign(): Promise<ReleaseLinks | null> {
    setError(null);
    try {
      const l = await api.links(pid, r.id);
      setLinks(l);
      return l;
    } catch (err) {
      setError(err);
      return null;
    }
  }
  return (
    <div className="release-result">
      <dl className="facts">
        <dt>Items read</dt>
        <dd>
          {t.read.toLocaleString()}: released {t.total.toLocaleString()}, left out {t.excluded.toLocaleString()}
          {t.filtered > 0 && `, outside the filter ${t.filtered.toLocaleString()}`}
        </dd>
        {leftOut && (
          <>
            <dt>Left out</dt>
            <dd>{leftOut}</dd>
          </>
        )}
        <dt>Records</dt>
        <dd>{s.records.toLocaleString()}</dd>
        <dt>Splits</dt>
        <dd>{splits || "—"}</dd>
        <dt>Provenance</dt>
        <dd>{provenance || "—"}</dd>
        {languages && (
          <>
            <dt>Languages</dt>
            <dd>{languages}</dd>
          </>
        )}
        <dt>Files</dt>
        <dd>
          {s.files} ({formatBytes(s.bytes)}), checksums in <code>manifest.json</code>
        </dd>
      </dl>
      <div className="release-actions">
        <button type="button" className="btn btn-primary" onClick={() => void sign().then((l) => l && navigate(l.archive))}>
          Download archive (.zip)
        </button>
        <button type="button" className="btn" onClick={() => void sign()}>
          Show files
        </button>
      </div>
      <ErrorMessage error={error} title="The download links could not be made." />
      {links && (
        <table className="table release-files" aria-label={`Files of ${r.name}`}>
          <thead>
            <tr>
              <th>File</th>
              <th className="num-col">Size</th>
              <th>SHA-256</th>
            </tr>
          </thead>
          <tbody>
            {links.files.map((f) => (
              <tr key={f.path}>
                <td>
                  <a href={f.url} download>
                    {f.path}
                  </a>
                </td>
                <td className="num-col">{formatBytes(f.bytes)}</td>
                <td>
                  <code title={f.sha256}>{f.sha256.slice(0, 12)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
