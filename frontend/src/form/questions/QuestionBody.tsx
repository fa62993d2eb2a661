import type { ReactNode } from "react";
import type { Kind } from "../../api";
import { forKind } from "../kinds";
import { BinaryQuestion } from "./BinaryQuestion";
import { LikertQuestion } from "./LikertQuestion";
import { ChoiceQuestion } from "./ChoiceQuestion";
import { PairwiseQuestion } from "./PairwiseQuestion";
import { RankingQuestion } from "./RankingQuestion";
import { ChecklistQuestion } from "./ChecklistQuestion";
import { TextQuestion } from "./TextQuestion";
import { CriteriaQuestion } from "./CriteriaQuestion";
import { ListEditQuestion } from "./ListEditQuestion";
import type { QuestionProps } from "./types";
import { useTranslation } from "react-i18next";

/** The answer widget of each kind. */
const WIDGETS: Record<Kind, (props: QuestionProps) => ReactNode> = {
  binary: (p) => <BinaryQuestion {...p} />,
  likert: (p) => <LikertQuestion {...p} />,
  choice: (p) => <ChoiceQuestion {...p} />,
  multi_choice: (p) => <ChoiceQuestion {...p} />,
  pairwise: (p) => <PairwiseQuestion {...p} />,
  ranking: (p) => <RankingQuestion {...p} />,
  checklist: (p) => <ChecklistQuestion {...p} />,
  text: (p) => <TextQuestion {...p} />,
  criteria: (p) => <CriteriaQuestion {...p} />,
  list_edit: (p) => <ListEditQuestion {...p} />,
};

/** The answer widget for the question's kind. */
export function QuestionBody(props: QuestionProps) {
  const { t } = useTranslation();
  const widget = forKind(WIDGETS, props.q.kind);
  return widget ? widget(props) : <p className="muted">{t("question.unsupported", { kind: props.q.kind })}</p>;
}
