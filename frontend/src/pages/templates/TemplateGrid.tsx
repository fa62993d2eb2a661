import { Link } from "react-router-dom";
import type { TemplateSummary } from "../../api";

interface Props {
  templates: TemplateSummary[];
  /** With onSelect the cards pick a template instead of opening its page. */
  selected?: string;
  onSelect?: (id: string) => void;
}

/** The template cards: links to each template's page, or choices in a picker. */
export function TemplateGrid({ templates, selected, onSelect }: Props) {
  return (
    <ul className="template-grid" aria-label="Templates">
      {templates.map((t) => {
        const body = (
          <>
            <span className="template-name">{t.name}</span>
            <span className="template-desc">{t.description}</span>
            <span className="template-meta">
              <code>{t.id}</code>
              <span>
                {t.question_count} {t.question_count === 1 ? "question" : "questions"}
              </span>
            </span>
          </>
        );
        return (
          <li key={t.id}>
            {onSelect ? (
              <button type="button" className={t.id === selected ? "template-card selected" : "template-card"} aria-pressed={t.id === selected} data-template={t.id} onClick={() => onSelect(t.id)}>
                {body}
              </button>
            ) : (
              <Link to={`/templates/${encodeURIComponent(t.id)}`} className="template-card">
                {body}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
