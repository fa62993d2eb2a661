package projects

import (
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

// ProjectView is a project's row as lists and the archive answer show it (ProjectDetail adds
// its schema and forms); it is also what the audit trail keeps of a project.
type ProjectView struct {
	ID            string     `json:"id"`
	Name          string     `json:"name"`
	Description   string     `json:"description"`
	Template      string     `json:"template"`
	Workflow      store.JSON `json:"workflow"`
	Guidelines    string     `json:"guidelines"`
	SchemaVersion int        `json:"schema_version"`
	ArchivedAt    *time.Time `json:"archived_at"`
	StorageQuota  *int64     `json:"storage_quota"`
	Balance       store.JSON `json:"balance,omitempty"` // balance targets, as workflow.BalanceTargets
	CreatedBy     string     `json:"created_by"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
}

func projectView(p *store.Project) *ProjectView {
	return &ProjectView{ID: p.ID, Name: p.Name, Description: p.Description, Template: p.Template, Workflow: p.Workflow,
		Guidelines: p.Guidelines, SchemaVersion: p.SchemaVersion, ArchivedAt: p.ArchivedAt, StorageQuota: p.StorageQuota,
		Balance: p.Balance, CreatedBy: p.CreatedBy, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// SchemaVersionView is one schema version of a project with how much work was done with it.
type SchemaVersionView struct {
	Version     int       `json:"version"`
	Hash        string    `json:"hash"`
	CreatedBy   string    `json:"created_by"`
	CreatedAt   time.Time `json:"created_at"`
	Assignments int64     `json:"assignments"`
	Submitted   int64     `json:"submitted"`
}

func schemaVersionViews(vs []store.SchemaVersionUse) []SchemaVersionView {
	if vs == nil {
		return nil
	}
	out := make([]SchemaVersionView, len(vs))
	for i, v := range vs {
		out[i] = SchemaVersionView{Version: v.Version, Hash: v.Hash, CreatedBy: v.CreatedBy, CreatedAt: v.CreatedAt,
			Assignments: v.Assignments, Submitted: v.Submitted}
	}
	return out
}

// MemberView is a member of a project with the user's name and email.
type MemberView struct {
	UserID string        `json:"user_id"`
	Email  string        `json:"email"`
	Name   string        `json:"name"`
	Roles  store.RoleSet `json:"roles"`
	Paused bool          `json:"paused"`
	// Qualified says the member passed a calibration round or a lead qualified them.
	Qualified bool `json:"qualified"`
	// Languages are the languages the member reads (BCP 47); empty means every language.
	Languages []string `json:"languages"`
}

func memberView(m *store.MemberView, languages []string) MemberView {
	return MemberView{UserID: m.UserID, Email: m.Email, Name: m.Name, Roles: m.Roles, Paused: m.Paused,
		Qualified: m.Qualified, Languages: languages}
}

// InvitationView is an open invitation of a project, as its leads see it.
type InvitationView struct {
	ID        string        `json:"id"`
	ProjectID string        `json:"project_id"`
	Email     string        `json:"email"`
	Roles     store.RoleSet `json:"roles"`
	InvitedBy string        `json:"invited_by"`
	CreatedAt time.Time     `json:"created_at"`
}

func invitationViews(is []store.Invitation) []InvitationView {
	if is == nil {
		return nil
	}
	out := make([]InvitationView, len(is))
	for i, in := range is {
		out[i] = InvitationView{ID: in.ID, ProjectID: in.ProjectID, Email: in.Email, Roles: in.Roles,
			InvitedBy: in.InvitedBy, CreatedAt: in.CreatedAt}
	}
	return out
}

// MyInvitationView is an invitation as its invitee sees it: the project by name, and who
// invited them.
type MyInvitationView struct {
	ID          string        `json:"id"`
	ProjectID   string        `json:"project_id"`
	ProjectName string        `json:"project_name"`
	Roles       store.RoleSet `json:"roles"`
	InvitedBy   string        `json:"invited_by"`
	CreatedAt   time.Time     `json:"created_at"`
}

func myInvitationViews(is []store.InvitationView) []MyInvitationView {
	if is == nil {
		return nil
	}
	out := make([]MyInvitationView, len(is))
	for i, in := range is {
		out[i] = MyInvitationView{ID: in.ID, ProjectID: in.ProjectID, ProjectName: in.ProjectName, Roles: in.Roles,
			InvitedBy: in.InvitedBy, CreatedAt: in.CreatedAt}
	}
	return out
}

// AuditEventView is one event of a project's audit trail.
type AuditEventView struct {
	ID        string     `json:"id"`
	ProjectID *string    `json:"project_id"`
	ActorID   *string    `json:"actor_id"`
	Action    string     `json:"action"`
	Target    string     `json:"target"`
	Before    store.JSON `json:"before"`
	After     store.JSON `json:"after"`
	CreatedAt time.Time  `json:"created_at"`
}

func auditEventViews(es []store.AuditEvent) []AuditEventView {
	if es == nil {
		return nil
	}
	out := make([]AuditEventView, len(es))
	for i, e := range es {
		out[i] = AuditEventView{ID: e.ID, ProjectID: e.ProjectID, ActorID: e.ActorID, Action: e.Action, Target: e.Target,
			Before: e.Before, After: e.After, CreatedAt: e.CreatedAt}
	}
	return out
}
