// Saving one assignment's draft: every change goes to this browser's storage
// at once and to the server after a quiet moment, one save at a time.
import { ApiError, type Answers } from "../../../api";
import { writeLocalDraft } from "./draftStore";

export type SaveState = "idle" | "pending" | "saving" | "saved" | "retrying" | "lost";

/** One draft save as sent; `stopped` tells a retry that the work was submitted meanwhile. */
export interface DraftWrite {
  aid: string;
  answers: Answers;
  version: number;
  stopped: () => boolean;
}

/** Thrown instead of saving once the saver is stopped, so a save being retried ends. */
export const STOPPED = new Error("draft saving stopped");

export const DEBOUNCE_MS = 1000;

/**
 * The draft of one assignment. `send` saves (and retries network failures
 * itself); a stale version adopts the server's and saves again; any other
 * refusal means the assignment is no longer this person's, and saving stops.
 */
export class DraftSaver {
  private answers: Answers | null = null;
  private dirty = false;
  private busy = false;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly aid: string,
    private version: number,
    private readonly send: (w: DraftWrite) => Promise<{ version: number }>,
    private readonly onState: (s: SaveState) => void,
  ) {}

  /** The person changed an answer. */
  change(answers: Answers) {
    if (this.stopped) return;
    this.answers = answers;
    this.dirty = true;
    writeLocalDraft(this.aid, { answers, at: Date.now(), saved: false });
    this.schedule(DEBOUNCE_MS);
    this.onState("pending");
  }

  /** Saves now what is not saved yet. */
  async flush(): Promise<void> {
    this.cancel();
    if (this.stopped || this.busy || !this.dirty || !this.answers) return;
    const answers = this.answers;
    this.dirty = false;
    this.busy = true;
    this.onState("saving");
    try {
      const { version } = await this.send({ aid: this.aid, answers, version: this.version, stopped: () => this.stopped });
      this.version = version;
      if (!this.dirty) writeLocalDraft(this.aid, { answers, at: Date.now(), saved: true });
      this.onState(this.dirty ? "pending" : "saved");
    } catch (err) {
      this.dirty = true;
      if (err instanceof ApiError && err.code === "stale_version") {
        const d = err.details as { current_version?: number } | null | undefined;
        this.version = d?.current_version ?? this.version;
        this.schedule(0);
        this.onState("pending");
      } else if (err !== STOPPED) {
        this.stopped = true;
        this.onState("lost");
      }
    } finally {
      this.busy = false;
      if (this.dirty && this.timer === undefined && !this.stopped) this.schedule(DEBOUNCE_MS);
    }
  }

  /** Sends nothing more (the work is being submitted). */
  stop() {
    this.stopped = true;
    this.cancel();
  }

  /** Saving goes on after a submit the server refused. */
  resume() {
    this.stopped = false;
    if (this.dirty) this.schedule(DEBOUNCE_MS);
  }

  /** The assignment is no longer shown: drop timers. */
  dispose() {
    this.stopped = true;
    this.cancel();
  }

  private schedule(ms: number) {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
  }

  private cancel() {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
