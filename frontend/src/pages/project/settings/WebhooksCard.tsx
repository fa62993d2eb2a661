import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, type ProjectDetail } from "../../../api";
import { ShownOnce } from "../../../components/ShownOnce";
import {
  useWebhooksApi,
  webhookEvents,
  webhookKeys,
  type Webhook,
  type WebhookEvent,
  type WebhookWithSecret,
} from "../../../api/webhooks";
import { ErrorMessage } from "../../../components/ErrorMessage";
import { Field } from "../../../components/Field";
import { formatDateTime } from "../../../components/format";

/** The project's webhooks: add one (its secret shown once), enable or disable, rotate, delete, and each one's delivery log. */
export function WebhooksCard({ project }: { project: ProjectDetail }) {
  const api = useWebhooksApi();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: webhookKeys.list(project.id), queryFn: () => api.list(project.id) });
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: webhookKeys.list(project.id) });
  return (
    <section className="card stack webhooks" aria-label="Webhooks">
      <h2 className="card-title">Webhooks</h2>
      <p className="muted">
        Events of this project are posted, signed with the webhook's secret (Standard Webhooks), to the URLs below.
      </p>
      {secret && <SecretNotice hook={secret} onDismiss={() => setSecret(null)} />}
      <ErrorMessage error={list.error} />
      {list.data && list.data.length === 0 && <p className="muted">No webhooks yet.</p>}
      {list.data?.map((w) => (
        <WebhookRow key={w.id} pid={project.id} hook={w} onSecret={setSecret} onChange={refresh} />
      ))}
      <NewWebhook
        pid={project.id}
        onCreated={(w) => {
          setSecret(w);
          refresh();
        }}
      />
    </section>
  );
}

/** Shows a new secret once, with a copy button. */
function SecretNotice({ hook, onDismiss }: { hook: WebhookWithSecret; onDismiss: () => void }) {
  return <ShownOnce title={`Signing secret of ${hook.url}`} value={hook.secret} testId="webhook-secret" onDismiss={onDismiss} />;
}

/** The form that adds a webhook: its URL and the events it takes. */
function NewWebhook({ pid, onCreated }: { pid: string; onCreated: (w: WebhookWithSecret) => void }) {
  const api = useWebhooksApi();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>(["release.completed"]);
  const create = useMutation({
    mutationFn: () => api.create(pid, url.trim(), events),
    onSuccess: (w) => {
      setUrl("");
      onCreated(w);
    },
  });
  const problems = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const eventError = Object.entries(problems).find(([k]) => k.startsWith("events"))?.[1];
  return (
    <form
      className="stack webhook-new"
      aria-label="Add a webhook"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Field label="URL" type="url" placeholder="https://example.org/arbiter" value={url} error={problems.url} onChange={(e) => setUrl(e.target.value)} />
      <fieldset className="webhook-events">
        <legend>Events</legend>
        {webhookEvents.map((ev) => (
          <label key={ev} className="check">
            <input
              type="checkbox"
              checked={events.includes(ev)}
              onChange={(e) => setEvents(e.target.checked ? webhookEvents.filter((x) => x === ev || events.includes(x)) : events.filter((x) => x !== ev))}
            />
            <span>{ev}</span>
          </label>
        ))}
        {eventError && <small className="field-error">{eventError}</small>}
      </fieldset>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={!url.trim() || events.length === 0 || create.isPending}>
          {create.isPending ? "Adding…" : "Add webhook"}
        </button>
      </div>
      {create.error && !problems.url && !eventError && <ErrorMessage error={create.error} />}
    </form>
  );
}

/** One webhook: its URL and events, enable or disable, rotate its secret, delete it, and its delivery log. */
function WebhookRow({ pid, hook, onSecret, onChange }: { pid: string; hook: Webhook; onSecret: (w: WebhookWithSecret) => void; onChange: () => void }) {
  const api = useWebhooksApi();
  const [log, setLog] = useState(false);
  const toggle = useMutation({ mutationFn: () => api.update(pid, hook.id, { enabled: !hook.enabled }), onSuccess: onChange });
  const rotate = useMutation({ mutationFn: () => api.rotate(pid, hook.id), onSuccess: onSecret });
  const remove = useMutation({ mutationFn: () => api.remove(pid, hook.id), onSuccess: onChange });
  return (
    <div className="webhook stack" data-testid="webhook">
      <div className="row settings-head">
        <div>
          <strong className="webhook-url">{hook.url}</strong>
          <div className="muted">
            {hook.enabled ? "Enabled" : "Disabled"} · {hook.events.join(", ")}
          </div>
        </div>
        <div className="row">
          <button type="button" className="btn btn-sm" disabled={toggle.isPending} onClick={() => toggle.mutate()}>
            {hook.enabled ? "Disable" : "Enable"}
          </button>
          <button type="button" className="btn btn-sm" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
            Rotate secret
          </button>
          <button type="button" className="btn btn-sm" onClick={() => setLog(!log)} aria-expanded={log}>
            {log ? "Hide deliveries" : "Deliveries"}
          </button>
          <button type="button" className="btn btn-sm btn-danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Delete
          </button>
        </div>
      </div>
      <ErrorMessage error={toggle.error ?? rotate.error ?? remove.error} />
      {log && <DeliveryLog pid={pid} wid={hook.id} />}
    </div>
  );
}

/** A webhook's latest deliveries, newest first. */
function DeliveryLog({ pid, wid }: { pid: string; wid: string }) {
  const api = useWebhooksApi();
  const q = useQuery({ queryKey: webhookKeys.deliveries(pid, wid), queryFn: () => api.deliveries(pid, wid) });
  if (q.error) return <ErrorMessage error={q.error} />;
  if (!q.data) return <p className="muted">Loading…</p>;
  if (q.data.length === 0) return <p className="muted">Nothing was sent yet.</p>;
  return (
    <table className="table" aria-label="Deliveries">
      <thead>
        <tr>
          <th>Event</th>
          <th>Status</th>
          <th>Attempts</th>
          <th>Answer</th>
          <th>Last error</th>
          <th>Queued</th>
          <th>Updated</th>
        </tr>
      </thead>
      <tbody>
        {q.data.map((d) => (
          <tr key={d.id}>
            <td>{d.event}</td>
            <td>{d.status}</td>
            <td>{d.attempts}</td>
            <td>{d.response_status ?? "—"}</td>
            <td>{d.last_error ?? "—"}</td>
            <td>{formatDateTime(d.created_at)}</td>
            <td>{formatDateTime(d.updated_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
