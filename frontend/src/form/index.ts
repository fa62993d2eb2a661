export { AnnotationForm } from "./AnnotationForm";
export type { AnnotationFormProps } from "./AnnotationForm";
export { Markdown } from "./Markdown";
export { validateAnswers, cleanAnswers, isAnswered } from "./answers";
export * from "./schema";
