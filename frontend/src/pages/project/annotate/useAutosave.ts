import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../../../api";
import type { WorkflowApi } from "../../../api/workflow";
import type { Answers } from "../../../api";
import { writeLocalDraft } from "./draftStore";
import { backoffMs, isRetryable } from "./retry";

export type SaveState = "idle" | "pending" | "saving" | "saved" | "retrying" | "lost";

const DEBOUNCE_MS = 1000;

/**
 * Autosaves an assignment's draft: every change goes to localStorage at once
 * and to the server after a second of quiet (and when the window loses focus).
 * A stale version adopts the server's and saves again; network failures retry
 * with backoff. Nothing is sent once `stop()` is called (the work was submitted).
 */
export function useAutosave(api: WorkflowApi, aid: string | null, initialVersion: number) {
  const [state, setState] = useState<SaveState>("idle");
  const s = useRef({ answers: null as Answers | null, dirty: false, version: initialVersion, timer: 0, attempt: 0, busy: false, stopped: false });

  useEffect(() => {
    const cur = s.current;
    window.clearTimeout(cur.timer);
    s.current = { answers: null, dirty: false, version: initialVersion, timer: 0, attempt: 0, busy: false, stopped: false };
    setState("idle");
  }, [aid, initialVersion]);

  const save = useCallback(async () => {
    const cur = s.current;
    window.clearTimeout(cur.timer);
    if (!aid || cur.stopped || cur.busy || !cur.dirty || !cur.answers) return;
    const answers = cur.answers;
    cur.dirty = false;
    cur.busy = true;
    setState("saving");
    try {
      const { version } = await api.saveDraft(aid, answers, cur.version);
      if (s.current !== cur) return;
      cur.version = version;
      cur.attempt = 0;
      if (!cur.dirty) writeLocalDraft(aid, { answers, at: Date.now(), saved: true });
      setState(cur.dirty ? "pending" : "saved");
    } catch (err) {
      if (s.current !== cur) return;
      cur.dirty = true;
      const code = err instanceof ApiError ? err.code : "";
      if (code === "stale_version") {
        const v = (err as ApiError).details as { current_version?: number } | undefined;
        cur.version = v?.current_version ?? cur.version;
        cur.timer = window.setTimeout(() => void save(), 0);
        setState("pending");
      } else if (isRetryable(err)) {
        cur.timer = window.setTimeout(() => void save(), backoffMs(cur.attempt++));
        setState("retrying");
      } else {
        cur.stopped = true;
        setState("lost");
      }
    } finally {
      cur.busy = false;
      if (s.current === cur && cur.dirty && !cur.timer && !cur.stopped) cur.timer = window.setTimeout(() => void save(), DEBOUNCE_MS);
    }
  }, [api, aid]);

  const change = useCallback(
    (answers: Answers) => {
      const cur = s.current;
      if (!aid || cur.stopped) return;
      cur.answers = answers;
      cur.dirty = true;
      writeLocalDraft(aid, { answers, at: Date.now(), saved: false });
      window.clearTimeout(cur.timer);
      cur.timer = window.setTimeout(() => void save(), DEBOUNCE_MS);
      setState((st) => (st === "retrying" ? st : "pending"));
    },
    [aid, save],
  );

  const stop = useCallback(() => {
    const cur = s.current;
    cur.stopped = true;
    window.clearTimeout(cur.timer);
  }, []);

  /** Lets saving go on again after a submit the server refused. */
  const resume = useCallback(() => {
    const cur = s.current;
    cur.stopped = false;
    if (cur.dirty) cur.timer = window.setTimeout(() => void save(), DEBOUNCE_MS);
  }, [save]);

  useEffect(() => {
    const flush = () => void save();
    const onVis = () => document.visibilityState === "hidden" && flush();
    window.addEventListener("blur", flush);
    document.addEventListener("visibilitychange", onVis);
    return () => {
      window.removeEventListener("blur", flush);
      document.removeEventListener("visibilitychange", onVis);
      window.clearTimeout(s.current.timer);
    };
  }, [save]);

  return { state, change, flush: save, stop, resume };
}
