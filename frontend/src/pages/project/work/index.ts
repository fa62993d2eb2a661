// The work-session kit shared by Annotate, Review and Adjudicate: claiming
// from the queue with the next item claimed ahead, autosave, retries,
// keyboard shortcuts and progress, and the frame every work page renders in.
export { useWorkSession, type WorkSession } from "./useWorkSession";
export { WorkFrame } from "./WorkFrame";
export { GuidelinesPanel, GUIDELINES_KEY } from "./GuidelinesPanel";
export { ItemActions, type ItemDialog } from "./ItemActions";
export { useAutosave } from "./useAutosave";
export type { SaveState } from "./draftSaver";
export { mediaPageKeys, usePageKeys, type PageKey } from "./usePageKeys";
export { Stat } from "./WorkBar";
export { PROJECT_MEDIA_BASE } from "./mediaBase";
export { startingAnswers } from "./draftStore";
export { hasMorePasses, type Outcome } from "./useWorkQueue";
