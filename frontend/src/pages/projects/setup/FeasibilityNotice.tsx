import { useQuery } from "@tanstack/react-query";
import { noSchema, setupKeys, useSetupApi } from "../../../api/setup";
import { ErrorMessage } from "../../../components/ErrorMessage";

/**
 * What the policy needs of the members and does not have, with the numbers
 * (GET /feasibility); follows member changes. Says so when nothing is missing
 * unless `quiet`.
 */
export function FeasibilityNotice({ pid, quiet = false }: { pid: string; quiet?: boolean }) {
  const setup = useSetupApi();
  const f = useQuery({ queryKey: setupKeys.feasibility(pid), queryFn: () => setup.feasibility(pid) });
  if (noSchema(f.error)) return null;
  if (f.isError) return <ErrorMessage error={f.error} title="Could not check the members against the policy." />;
  if (!f.data) return null;
  const counts = `${f.data.annotators} annotator${f.data.annotators === 1 ? "" : "s"}, ${f.data.reviewers} reviewer${f.data.reviewers === 1 ? "" : "s"}, ${f.data.adjudicators} adjudicator${f.data.adjudicators === 1 ? "" : "s"}`;
  if (f.data.warnings.length === 0) {
    if (quiet) return null;
    return (
      <div className="notice notice-success" role="status" data-testid="feasibility">
        <span>The members can do everything the policy asks ({counts}).</span>
      </div>
    );
  }
  return (
    <div className="notice notice-warn" role="alert" data-testid="feasibility">
      <span className="notice-title">The policy needs people the project does not have</span>
      <ul className="notice-list">
        {f.data.warnings.map((w) => (
          <li key={`${w.code} ${w.language ?? ""}`} data-code={w.code}>
            {w.message} <span className="feasibility-numbers">(needed {w.needed}, have {w.have})</span>
          </li>
        ))}
      </ul>
      <span className="muted">Members now: {counts}. People invited by email count once they accept.</span>
    </div>
  );
}
