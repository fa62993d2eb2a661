import { useQuery } from "@tanstack/react-query";
import { releaseKeys, useReleasesApi, type ExportFormat } from "../../../api/releases";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Spinner } from "../../../components/Spinner";

/** The formats the server writes, as checkboxes, each with what it writes. */
export function FormatChoices({ chosen, onToggle, error }: {
  chosen: ExportFormat["name"][];
  onToggle: (name: ExportFormat["name"], on: boolean) => void;
  error?: string;
}) {
  const api = useReleasesApi();
  const formats = useQuery({ queryKey: releaseKeys.formats, queryFn: () => api.formats(), staleTime: Infinity });
  return (
    <fieldset className="release-fieldset">
      <legend>Formats</legend>
      {formats.isPending ? (
        <Spinner label="Loading the formats…" />
      ) : formats.isError ? (
        <ErrorMessage error={formats.error} title="Could not load the formats." />
      ) : (
        <div className="release-formats">
          {formats.data.map((f) => (
            <div key={f.name} className="release-format">
              <label>
                <input
                  type="checkbox"
                  checked={chosen.includes(f.name)}
                  onChange={(e) => onToggle(f.name, e.target.checked)}
                  aria-describedby={`release-format-${f.name}`}
                />{" "}
                {f.name}
              </label>
              <small id={`release-format-${f.name}`} className="muted release-format-about">
                {f.description}
              </small>
            </div>
          ))}
        </div>
      )}
      {error && <small className="field-error">{error}</small>}
    </fieldset>
  );
}
