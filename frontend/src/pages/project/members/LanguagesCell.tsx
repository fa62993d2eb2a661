import { useState, type FormEvent } from "react";
import type { ID, Member } from "../../../api";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { languagesText, splitLanguages } from "../../../components/languages";
import { useSetLanguages } from "./useSetRoles";

/**
 * The languages a member reads: shown as tags ("All" when none, which the
 * queue reads as every language), edited in place by leads as a list such as
 * "en, zh-Hans". The server checks the tags and stores them canonical.
 */
export function LanguagesCell({ pid, member, canManage }: { pid: ID; member: Member; canManage: boolean }) {
  const [text, setText] = useState<string | null>(null);
  const setLanguages = useSetLanguages(pid);
  const current = member.languages ?? [];

  if (text === null) {
    return (
      <td>
        <span className={current.length === 0 ? "muted" : undefined}>{languagesText(current, "All")}</span>
        {canManage && (
          <>
            {" "}
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => setText(current.join(", "))} aria-label={`Edit languages of ${member.email}`}>
              Edit
            </button>
          </>
        )}
      </td>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLanguages.mutate({ uid: member.user_id, languages: splitLanguages(text) }, { onSuccess: () => setText(null) });
  };
  return (
    <td>
      <form className="row" onSubmit={submit} onKeyDown={(e) => e.key === "Escape" && setText(null)}>
        <input
          type="text"
          size={16}
          aria-label={`Languages of ${member.email}`}
          placeholder="e.g. en, zh (empty: all)"
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={setLanguages.isPending}
          autoFocus
        />
        <button type="submit" className="btn btn-primary btn-sm" disabled={setLanguages.isPending}>
          Save
        </button>
        <button type="button" className="btn btn-sm" onClick={() => setText(null)}>
          Cancel
        </button>
      </form>
      {setLanguages.isError && <ErrorMessage error={setLanguages.error} />}
    </td>
  );
}
