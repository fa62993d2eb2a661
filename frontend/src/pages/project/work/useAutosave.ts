import { useCallback, useEffect, useRef, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import type { Answers } from "../../../api";
import type { WorkflowApi } from "../../../api/workflow";
import { DraftSaver, STOPPED, type DraftWrite, type SaveState } from "./draftSaver";
import { isRetryable, keepTrying } from "./retry";

export type { SaveState } from "./draftSaver";

/**
 * Autosaves the draft of the assignment `aid` of project `pid` (DraftSaver): to this browser
 * at once, to the server after a second of quiet and when the window loses
 * focus or is hidden. Saves are a mutation that keeps trying through network
 * failures; `stop()` (before a submit) ends that, `resume()` undoes it.
 */
export function useAutosave(api: WorkflowApi, pid: string, aid: string | null, initialVersion: number) {
  // note: keyed by the draft, not the assignment: the passes of a form are one assignment, each
  // pass a new version with nothing of it answered yet
  const draft = aid && `${aid}@${initialVersion}`;
  const [shown, setShown] = useState<{ draft: string | null; state: SaveState }>({ draft: null, state: "idle" });
  const save = useMutation({
    mutationFn: (w: DraftWrite) => (w.stopped() ? Promise.reject(STOPPED) : api.saveDraft(pid, w.aid, w.answers, w.version)),
    retry: (_failures: number, err: unknown) => err !== STOPPED && isRetryable(err),
    retryDelay: keepTrying.retryDelay,
  });
  const send = save.mutateAsync;
  const saver = useRef<DraftSaver | null>(null);

  useEffect(() => {
    if (!aid) return;
    const s = new DraftSaver(aid, initialVersion, send, (state) => setShown({ draft: `${aid}@${initialVersion}`, state }));
    saver.current = s;
    const flush = () => void s.flush();
    const onVis = () => document.visibilityState === "hidden" && flush();
    window.addEventListener("blur", flush);
    document.addEventListener("visibilitychange", onVis);
    return () => {
      window.removeEventListener("blur", flush);
      document.removeEventListener("visibilitychange", onVis);
      s.dispose();
      if (saver.current === s) saver.current = null;
    };
  }, [aid, initialVersion, send]);

  const change = useCallback((answers: Answers) => saver.current?.change(answers), []);
  const stop = useCallback(() => saver.current?.stop(), []);
  const resume = useCallback(() => saver.current?.resume(), []);

  const retrying = save.isPending && save.variables?.aid === aid && (save.isPaused || save.failureCount > 0);
  const state: SaveState = shown.draft !== draft ? "idle" : retrying ? "retrying" : shown.state;
  return { state, change, stop, resume };
}
