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

/** The answer widget for the question's kind. */
export function QuestionBody(props: QuestionProps) {
  switch (props.q.kind) {
    case "binary":
      return <BinaryQuestion {...props} />;
    case "likert":
      return <LikertQuestion {...props} />;
    case "choice":
    case "multi_choice":
      return <ChoiceQuestion {...props} />;
    case "pairwise":
      return <PairwiseQuestion {...props} />;
    case "ranking":
      return <RankingQuestion {...props} />;
    case "checklist":
      return <ChecklistQuestion {...props} />;
    case "text":
      return <TextQuestion {...props} />;
    case "criteria":
      return <CriteriaQuestion {...props} />;
    case "list_edit": return <ListEditQuestion {...props} />;
  }
  return <p className="muted">Unsupported question kind “{props.q.kind}”.</p>;
}
