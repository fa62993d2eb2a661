import { Route, Routes } from "react-router-dom";
import { useProject } from "../useProject";
import { RoundList } from "./RoundList";
import { RoundForm } from "./RoundForm";
import { RoundPage } from "./RoundPage";
import { PoolNotice } from "./PoolNotice";
import "../../../charts/charts.css";
import "../figures/measures.css";
import "./calibration.css";

/**
 * Calibration: the lead's rounds over the calibration pool — new rounds,
 * their completion, closing them and reading their reports.
 */
export function CalibrationTab() {
  const project = useProject();
  if (!(project.my_roles ?? []).includes("lead")) return <p className="muted">Only the project's leads run calibration rounds.</p>;
  return (
    <Routes>
      <Route
        index
        element={
          <div className="calibration">
            <PoolNotice pid={project.id} />
            <RoundForm project={project} />
            <RoundList pid={project.id} />
          </div>
        }
      />
      <Route path=":rid" element={<RoundPage project={project} />} />
    </Routes>
  );
}
