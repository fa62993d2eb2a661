// The annotation form: renders any task schema (see tasks/ in Go) with the
// item's inputs on one side and the questions on the other.
//
// Keyboard map (also shown in the form with "?"):
//   j/↓, k/↑ move between questions; Tab moves between controls; Enter or
//   Ctrl+Enter submits (Enter on a text question starts typing; Esc leaves
//   the field); Delete clears an answer.
//   binary y/n/a · likert 1–9, 0 (=10), ←/→, a (N/A) · choice 1–9, 0 ·
//   multi_choice toggles with digits · pairwise a/b/t · ranking slot letters
//   in order, ⌫ undoes · checklist digits score the current item, ←/→ pick it.
//   p focuses the next visible player or image; Space plays the first video or
//   audio; a focused player takes Space/k, ,/. (±1 frame), [ ] (speed), ←/→, m.
export { AnnotationForm } from "./AnnotationForm";
export type { AnnotationFormProps } from "./AnnotationForm";
export { Markdown } from "./Markdown";
export { validateAnswers, cleanAnswers, isAnswered } from "./answers";
export * from "./schema";
