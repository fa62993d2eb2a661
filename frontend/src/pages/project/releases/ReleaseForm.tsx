import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../../api";
import { releaseKeys, useReleasesApi, type ExportFormat } from "../../../api/releases";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Field } from "../../../components/Field";
import { FormatChoices } from "./FormatChoices";
import { formatDateTime } from "../../../components/format";
import { defaultChoices, linksExpireAt, MEDIA_LINK_DAYS, releaseRequest, type ReleaseChoices } from "./options";

/** The errors of a refused request by field, with formats[i] gathered under formats. */
function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(err.fieldErrors())) {
    const key = k.startsWith("formats[") ? "formats" : k.startsWith("options.filter") ? "options.filter" : k;
    out[key] = out[key] ? `${out[key]} ${v}` : v;
  }
  return out;
}

/** Starts a release with its options; the server checks everything before a job starts. */
export function ReleaseForm({ pid }: { pid: string }) {
  const api = useReleasesApi();
  const qc = useQueryClient();
  const [c, setC] = useState<ReleaseChoices>(defaultChoices);
  const set = <K extends keyof ReleaseChoices>(k: K, v: ReleaseChoices[K]) => setC((prev) => ({ ...prev, [k]: v }));
  const create = useMutation({
    mutationFn: () => api.create(pid, releaseRequest(c)),
    onSuccess: () => {
      setC((prev) => ({ ...prev, name: "" }));
      void qc.invalidateQueries({ queryKey: releaseKeys.list(pid) });
    },
  });
  const errs = fieldErrors(create.error);
  const known = new Set(["name", "formats", "project", "options.include_dropped", "options.raw", "options.media", "options.split",
    "options.split_key", "options.split_ratios", "options.cluster_key", "options.filter", "options.ties"]);
  const other = Object.entries(errs).filter(([k]) => !known.has(k));
  const toggleFormat = (name: ExportFormat["name"], on: boolean) =>
    set("formats", on ? [...c.formats, name] : c.formats.filter((f) => f !== name));
  return (
    <form
      className="card release-form"
      aria-label="New release"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2 className="card-title">New release</h2>
      <Field label="Name" value={c.name} onChange={(e) => set("name", e.target.value)} placeholder="v1" error={errs.name} />
      <FormatChoices chosen={c.formats} onToggle={toggleFormat} error={errs.formats} />
      <fieldset className="release-fieldset">
        <legend>Items</legend>
        <label>
          <input type="radio" name="items" checked={!c.includeDropped} onChange={() => set("includeDropped", false)} /> Done items (ground truth) only
        </label>
        <label>
          <input type="radio" name="items" checked={c.includeDropped} onChange={() => set("includeDropped", true)} /> Also dropped and unresolved items, marked
          with their status
        </label>
        <Field label="Metadata filter (optional)" value={c.filter} onChange={(e) => set("filter", e.target.value)} placeholder="task=text_to_image"
          hint="key=value1,value2 keeps the items whose metadata matches." error={errs["options.filter"]} />
      </fieldset>
      <SplitChoices c={c} set={set} errs={errs} />
      <fieldset className="release-fieldset">
        <legend>Contents</legend>
        <label>
          <input type="checkbox" checked={c.raw} onChange={(e) => set("raw", e.target.checked)} /> Raw labels and reviews (annotators pseudonymised)
        </label>
        <label>
          <input type="radio" name="media" checked={c.media === "copy"} onChange={() => set("media", "copy")} /> Media copied into the release
        </label>
        <label>
          <input type="radio" name="media" checked={c.media === "reference"} onChange={() => set("media", "reference")} /> Media referenced by
          links that expire
        </label>
        {c.media === "reference" && (
          <div className="notice notice-warn" role="status" data-testid="links-expire">
            Links to uploaded media in the released files stop working {MEDIA_LINK_DAYS} days after the release is started (started now:{" "}
            {formatDateTime(linksExpireAt(new Date()).toISOString())}). Whoever uses the release after that gets broken media; copy the media
            to ship them with the files.
          </div>
        )}
        {errs["options.media"] && <div className="field-error" role="alert">{errs["options.media"]}</div>}
        {c.formats.includes("omnireward") && (
          <label>
            <input type="checkbox" checked={c.ties} onChange={(e) => set("ties", e.target.checked)} /> Omni-Reward: keep tie records
          </label>
        )}
      </fieldset>
      {errs.project && <div className="notice notice-error" role="alert">{errs.project}</div>}
      {other.map(([k, v]) => (
        <div key={k} className="notice notice-error" role="alert">
          <code>{k}</code>: {v}
        </div>
      ))}
      {create.isError && Object.keys(errs).length === 0 && <ErrorMessage error={create.error} title="The release could not start." />}
      <button type="submit" className="btn btn-primary" disabled={create.isPending || c.formats.length === 0}>
        Start release
      </button>
    </form>
  );
}

function SplitChoices({ c, set, errs }: {
  c: ReleaseChoices;
  set: <K extends keyof ReleaseChoices>(k: K, v: ReleaseChoices[K]) => void;
  errs: Record<string, string>;
}) {
  return (
    <fieldset className="release-fieldset">
      <legend>Splits</legend>
      <label>
        <input type="radio" name="split" checked={c.split === "one"} onChange={() => set("split", "one")} /> One split
      </label>
      <label>
        <input type="radio" name="split" checked={c.split === "key"} onChange={() => set("split", "key")} /> From a metadata key
      </label>
      <label>
        <input type="radio" name="split" checked={c.split === "ratio"} onChange={() => set("split", "ratio")} /> By ratio
      </label>
      {c.split === "one" && <Field label="Split name" value={c.splitName} onChange={(e) => set("splitName", e.target.value)} error={errs["options.split"]} />}
      {c.split === "key" && (
        <Field label="Metadata key" value={c.splitKey} onChange={(e) => set("splitKey", e.target.value)} placeholder="split" error={errs["options.split_key"]} />
      )}
      {c.split === "ratio" && (
        <>
          <Field label="Ratios" value={c.ratios} onChange={(e) => set("ratios", e.target.value)} error={errs["options.split_ratios"]} />
          <Field label="Keep together by (optional metadata key)" value={c.clusterKey} onChange={(e) => set("clusterKey", e.target.value)}
            placeholder="source_clip" hint="Items sharing this value land in one split." error={errs["options.cluster_key"]} />
        </>
      )}
    </fieldset>
  );
}
