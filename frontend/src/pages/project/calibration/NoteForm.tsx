import { useEffect, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { qualityKeys, useQualityApi, type RoundDetail } from "../../../api/quality";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { ratedQuestions } from "./RoundForm";

export interface NoteTarget {
  item_id: string;
  question: string;
}

/** Feedback on one (item, question) of a closed round; each participant sees it beside their answer. */
export function NoteForm({
  project,
  round,
  target,
  onTarget,
}: {
  project: ProjectDetail;
  round: RoundDetail;
  target: NoteTarget | null;
  onTarget: (t: NoteTarget) => void;
}) {
  const api = useQualityApi();
  const qc = useQueryClient();
  const questions = ratedQuestions(project);
  const item = target?.item_id ?? round.item_ids[0]?.id ?? "";
  const question = target?.question ?? questions[0]?.key ?? "";
  const [note, setNote] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (target) box.current?.focus();
  }, [target]);
  const add = useMutation({
    mutationFn: () => api.addNote(project.id, round.id, { item_id: item, question, note: note.trim() }),
    onSuccess: () => {
      const ext = round.item_ids.find((i) => i.id === item)?.external_id ?? item;
      setSaved(`Note saved on ${ext} · ${question}.`);
      setNote("");
      void qc.invalidateQueries({ queryKey: qualityKeys.report(project.id, round.id) });
    },
  });
  return (
    <form
      className="card note-form"
      aria-label="Feedback note"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(null);
        add.mutate();
      }}
    >
      <h3 className="card-title field-wide">Feedback note</h3>
      <div className="field">
        <label htmlFor="note-item">Item</label>
        <select id="note-item" value={item} onChange={(e) => onTarget({ item_id: e.target.value, question })}>
          {round.item_ids.map((i) => (
            <option key={i.id} value={i.id}>
              {i.external_id}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="note-question">Question</label>
        <select id="note-question" value={question} onChange={(e) => onTarget({ item_id: item, question: e.target.value })}>
          {questions.map((q) => (
            <option key={q.key} value={q.key}>
              {q.short_label || q.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-wide">
        <label htmlFor="note-text">Note</label>
        <textarea id="note-text" ref={box} rows={3} value={note} onChange={(e) => setNote(e.target.value)} placeholder="What the guidelines mean here, and why" />
      </div>
      <div className="note-actions">
        <button type="submit" className="btn btn-primary" disabled={add.isPending || !note.trim() || !item || !question}>
          Save note
        </button>
        {saved && (
          <span className="notice notice-success" role="status">
            {saved}
          </span>
        )}
      </div>
      {add.isError && <ErrorMessage error={add.error} title="Could not save the note." />}
    </form>
  );
}
