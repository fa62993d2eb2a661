package store_test

import (
	"testing"
)

func TestAudit(t *testing.T) {
	eachBackend(t, func(t *testing.T, f *fixture) {
		lead := f.user("lead")
		p, other := f.project(lead), f.project(lead)
		must(t, f.s.Audit(f.ctx, p.ID, lead.ID, "project.update", "project:"+p.ID, map[string]any{"name": "old"}, map[string]any{"name": "new"}))
		must(t, f.s.Audit(f.ctx, p.ID, "", "item.stage", "item:x", nil, nil))
		must(t, f.s.Audit(f.ctx, other.ID, lead.ID, "project.update", "project:"+other.ID, nil, nil))
		must(t, f.s.Audit(f.ctx, "", lead.ID, "user.login", "user:"+lead.ID, nil, nil))
		if err := f.s.Audit(f.ctx, p.ID, lead.ID, "x", "y", func() {}, nil); err == nil {
			t.Fatal("a state that cannot be marshalled was recorded")
		}

		es, err := f.s.AuditEvents(f.ctx, p.ID, 10)
		must(t, err)
		if len(es) != 2 {
			t.Fatalf("events of the project %+v", es)
		}
		newest, oldest := es[0], es[1]
		if newest.Action != "item.stage" || newest.ActorID != nil || newest.Before != nil || newest.After != nil || *newest.ProjectID != p.ID {
			t.Fatalf("an event by the system %+v", newest)
		}
		if oldest.Action != "project.update" || *oldest.ActorID != lead.ID || string(oldest.Before) != `{"name":"old"}` ||
			string(oldest.After) != `{"name":"new"}` || oldest.Target != "project:"+p.ID || oldest.CreatedAt.IsZero() {
			t.Fatalf("an event by the lead %+v", oldest)
		}
		if es, _ := f.s.AuditEvents(f.ctx, p.ID, 1); len(es) != 1 || es[0].ID != newest.ID {
			t.Fatalf("the newest event %+v", es)
		}
		if n := f.countRows("audit_events", "project_id IS NULL AND target = "+f.ph(1), "user:"+lead.ID); n != 1 {
			t.Fatalf("%d events without a project", n)
		}
	})
}
