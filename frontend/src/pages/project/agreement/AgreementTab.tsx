import { qualityKeys, useQualityApi, type AgreementQuestion, type AgreementReport } from "../../../api/quality";
import { fixed, interval, percent } from "../../../charts";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { formatDateTime } from "../../../components/format";
import { Spinner } from "../../../components/Spinner";
import { ComputingBadge } from "../figures/ComputingBadge";
import { useFigures } from "../figures/useFigures";
import { useProject } from "../useProject";
import { AlphaFigure, MatrixFigure } from "../figures/figures";
import "../../../charts/charts.css";
import "../figures/measures.css";

/**
 * Agreement: how far the project's annotators agree on each question, from
 * the figures the server computes in the background and keeps.
 */
export function AgreementTab() {
  const project = useProject();
  const api = useQualityApi();
  const q = useFigures(qualityKeys.agreement(project.id, "label"), () => api.agreement(project.id, "label"));
  if (q.isPending) return <Spinner label="Loading agreement…" />;
  if (q.isError) return <ErrorMessage error={q.error} title="Could not load agreement." />;
  const r = q.data;
  return (
    <div className="measures">
      <AgreementHeader report={r} />
      {r.questions.length === 0 ? (
        r.status === "computing" ? (
          <Spinner label="Computing agreement for the first time…" />
        ) : (
          <EmptyState title="No agreement yet">
            Agreement is computed from items that two or more people labeled, on questions with a level of measurement.
          </EmptyState>
        )
      ) : (
        <AgreementBody report={r} />
      )}
    </div>
  );
}

function AgreementHeader({ report: r }: { report: AgreementReport }) {
  return (
    <header className="measures-head">
      <div>
        <h2>Agreement</h2>
        <p className="muted" data-testid="agreement-computed">
          {r.computed_at
            ? `Computed ${formatDateTime(r.computed_at)} from ${r.labels.toLocaleString()} labels (schema version ${r.schema_version}).`
            : "Not computed yet."}
        </p>
      </div>
      <ComputingBadge status={r.status} />
      <dl className="measures-facts">
        <div>
          <dt>Macro α</dt>
          <dd>{fixed(r.macro.alpha)}</dd>
        </div>
        <div>
          <dt>Macro agreement</dt>
          <dd>{percent(r.macro.percent_agreement)}</dd>
        </div>
      </dl>
    </header>
  );
}

function AgreementBody({ report: r }: { report: AgreementReport }) {
  const nominal = r.questions.filter((q) => q.level === "nominal");
  const ordinal = r.questions.filter((q) => q.level !== "nominal");
  return (
    <>
      <div className="measures-grid">
        <AlphaFigure questions={r.questions} />
        <MatrixFigure matrix={r.matrix} />
      </div>
      {nominal.length > 0 && <NominalTable questions={nominal} />}
      {ordinal.length > 0 && <OrdinalTable questions={ordinal} />}
    </>
  );
}

function QuestionCells({ q }: { q: AgreementQuestion }) {
  return (
    <>
      <th scope="row">
        {q.label || q.key}
        <div className="muted mono">{q.key}</div>
      </th>
      <td>{q.level}</td>
      <td className="num">{q.n_units.toLocaleString()}</td>
      <td className="num">{q.n_ratings.toLocaleString()}</td>
      <td className="num">{fixed(q.alpha)}</td>
      <td className="num">{interval(q.alpha_ci)}</td>
      <td className="num">{percent(q.percent_agreement)}</td>
    </>
  );
}

const HEAD = ["Question", "Level", "Units", "Ratings", "α", "95 % interval", "Agreement"];

function NominalTable({ questions }: { questions: AgreementQuestion[] }) {
  const raw = questions.some((q) => q.raw);
  return (
    <section className="card">
      <h3 className="card-title">Nominal questions</h3>
      <div className="table-scroll">
        <table className="table measures-table" aria-label="Nominal questions">
          <thead>
            <tr>
              {HEAD.map((h) => (
                <th key={h}>{h}</th>
              ))}
              <th>Fleiss κ</th>
              <th>Gwet AC1</th>
              {raw && <th title="Raw Yes/No/N-A answers, before polarity and N/A mapping">Raw α / agreement</th>}
            </tr>
          </thead>
          <tbody>
            {questions.map((q) => (
              <tr key={q.key}>
                <QuestionCells q={q} />
                <td className="num">{fixed(q.fleiss_kappa)}</td>
                <td className="num">{fixed(q.gwet_ac1)}</td>
                {raw && <td className="num">{q.raw ? `${fixed(q.raw.alpha)} / ${percent(q.raw.percent_agreement)}` : "—"}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {raw && <p className="chart-note muted">Binary answers are compared as “requirement satisfied or not” after polarity and N/A mapping; the raw column compares Yes/No/N-A as given.</p>}
    </section>
  );
}

function OrdinalTable({ questions }: { questions: AgreementQuestion[] }) {
  return (
    <section className="card">
      <h3 className="card-title">Ordinal questions</h3>
      <div className="table-scroll">
        <table className="table measures-table" aria-label="Ordinal questions">
          <thead>
            <tr>
              {HEAD.map((h) => (
                <th key={h}>{h}</th>
              ))}
              <th>Exact</th>
              <th>Within ±1</th>
              <th title="Mean absolute difference of rating pairs">MAD</th>
            </tr>
          </thead>
          <tbody>
            {questions.map((q) => (
              <tr key={q.key}>
                <QuestionCells q={q} />
                <td className="num">{percent(q.exact)}</td>
                <td className="num">{percent(q.within_one)}</td>
                <td className="num">{fixed(q.mad)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
