package projects

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// ProjectSpec is what a new project is made from: a template or a schema, and a policy.
type ProjectSpec struct {
	Name        string                  `json:"name"`
	Description string                  `json:"description"`
	Template    string                  `json:"template"`
	Schema      *tasks.Schema           `json:"schema"`
	Forms       map[string]tasks.Schema `json:"forms"`
	Workflow    *workflow.Policy        `json:"workflow"`
	Guidelines  string                  `json:"guidelines"`
}

// templatePolicy is the policy a project starts from: the given one, or when none is given the
// template's (the policy its paper ran).
func templatePolicy(t tasks.Template, given *workflow.Policy) (*workflow.Policy, error) {
	if given != nil || len(t.Workflow) == 0 {
		return given, nil
	}
	pol := &workflow.Policy{}
	if err := json.Unmarshal(t.Workflow, pol); err != nil {
		return nil, fmt.Errorf("template %s workflow: %w", t.ID, err)
	}
	return pol, nil
}

// ProjectPatch changes a project; nil fields stay as they are. A schema whose content differs
// from the current one becomes a new version.
type ProjectPatch struct {
	Name        *string                  `json:"name"`
	Description *string                  `json:"description"`
	Schema      *tasks.Schema            `json:"schema"`
	Forms       map[string]tasks.Schema  `json:"forms"`
	Workflow    *workflow.Policy         `json:"workflow"`
	Guidelines  *string                  `json:"guidelines"`
	Balance     *workflow.BalanceTargets `json:"balance"`
}

// ProjectDetail is a project as a member sees it: its current schema and forms, its policy
// and the member's roles.
type ProjectDetail struct {
	ID            string                  `json:"id"`
	Name          string                  `json:"name"`
	Description   string                  `json:"description"`
	Template      string                  `json:"template"`
	Guidelines    string                  `json:"guidelines"`
	ArchivedAt    *time.Time              `json:"archived_at"`
	Workflow      workflow.Policy         `json:"workflow"`
	SchemaVersion int                     `json:"schema_version"`
	Schema        *tasks.Schema           `json:"schema"`
	Forms         map[string]tasks.Schema `json:"forms,omitempty"`
	Balance       workflow.BalanceTargets `json:"balance"`
	CreatedBy     string                  `json:"created_by"`
	CreatedAt     time.Time               `json:"created_at"`
	UpdatedAt     time.Time               `json:"updated_at"`
	MyRoles       store.RoleSet           `json:"my_roles"`
}

// ProjectSummary is a project in a list, with the caller's roles.
type ProjectSummary struct {
	ProjectView
	MyRoles store.RoleSet `json:"my_roles"`
}

// checkTexts bounds a project's free texts.
func checkTexts(fe tasks.FieldErrors, description, guidelines string) {
	if len(description) > 10_000 {
		fe.Add("description", "too_long", "description must be at most 10000 characters")
	}
	if len(guidelines) > 200_000 {
		fe.Add("guidelines", "too_long", "guidelines must be at most 200000 characters")
	}
}

// resolve turns the spec's template or schema into a schema document and checks it with the
// policy. A spec without either gets an empty document: the schema comes later by PATCH. A spec
// from a template without a policy gets the template's (its paper's), when it has one; a policy
// given replaces it whole.
func (spec ProjectSpec) resolve() (*workflow.SchemaDoc, workflow.Policy, error) {
	fe := tasks.FieldErrors{}
	workflow.CheckName(fe, "name", spec.Name)
	checkTexts(fe, spec.Description, spec.Guidelines)
	doc := &workflow.SchemaDoc{Schema: tasks.Schema{Inputs: []tasks.Input{}, Questions: []tasks.Question{}}}
	switch {
	case spec.Template != "" && spec.Schema != nil:
		fe.Add("template", "conflict", "give a template or a schema, not both")
	case spec.Template != "":
		t, ok := tasks.LookupTemplate(spec.Template)
		if !ok {
			fe.Add("template", "unknown_template", "no template %s; GET /api/v1/templates lists them", spec.Template)
			break
		}
		doc.Schema, doc.Forms = t.Schema, map[string]tasks.Schema{}
		for _, f := range t.Forms {
			doc.Forms[f.Key] = f.Schema
		}
		pol, err := templatePolicy(t, spec.Workflow)
		if err != nil {
			return nil, workflow.Policy{}, err
		}
		spec.Workflow = pol
	case spec.Schema != nil:
		doc.Schema, doc.Forms = *spec.Schema, spec.Forms
	}
	if err := fe.Err(); err != nil {
		return nil, workflow.Policy{}, err
	}
	pol, err := checkDoc(doc, spec.Workflow)
	return doc, pol, err
}

// checkDoc validates a schema document (when it has questions) and a policy against it, and
// returns the policy with its defaults.
func checkDoc(doc *workflow.SchemaDoc, p *workflow.Policy) (workflow.Policy, error) {
	pol := workflow.Policy{}
	if p != nil {
		pol = *p
	}
	pol = pol.Defaults()
	if doc.HasSchema() {
		doc.Schema.Version = max(doc.Schema.Version, 1)
		if err := doc.Schema.Validate(); err != nil {
			return pol, tasks.Prefixed(err, "schema.")
		}
		for key, f := range doc.Forms {
			if err := f.Validate(); err != nil {
				return pol, tasks.Prefixed(err, "forms."+key+".")
			}
		}
	}
	return pol, pol.Validate(&doc.Schema, doc.Forms)
}

// CreateProject makes a project from a template or a schema; its creator becomes its lead.
func (s *Service) CreateProject(ctx context.Context, actor *store.User, spec ProjectSpec) (*ProjectDetail, error) {
	if !actor.IsAdmin && !actor.CanCreateProjects {
		return nil, ErrCannotCreate
	}
	actorID := actor.ID
	doc, pol, err := spec.resolve()
	if err != nil {
		return nil, err
	}
	p := &store.Project{Name: strings.TrimSpace(spec.Name), Description: spec.Description, Template: spec.Template,
		Guidelines: spec.Guidelines, Workflow: workflow.Encode(pol), CreatedBy: actorID}
	var sv *store.SchemaVersion
	if doc.HasSchema() {
		sv = &store.SchemaVersion{Version: doc.Schema.Version, Schema: workflow.Encode(doc), Hash: doc.Hash()}
	}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.CreateProject(ctx, p, sv); err != nil {
			return err
		}
		return tx.Audit(ctx, p.ID, actorID, "project.create", "project:"+p.ID, nil, projectView(p))
	})
	if err != nil {
		return nil, err
	}
	return detail(p, pol, doc, RolesIn(actor, store.RoleSet{store.RoleLead})), nil
}

// RolesIn is the one rule for a person's roles in a project: an administrator holds every
// role in every project; anyone else holds the roles of their membership.
func RolesIn(u *store.User, member store.RoleSet) store.RoleSet {
	if u.IsAdmin {
		return store.RoleSet(slices.Clone(store.Roles))
	}
	return member
}

// PatchProject edits a project. The one versioning rule: a schema document (schema and forms)
// whose content differs from the current version becomes a new version, whether or not work
// exists yet (a claim may already show the current one); the same content changes nothing.
// Annotations keep the version they were made with.
func (s *Service) PatchProject(ctx context.Context, actorID string, cur *store.Project, roles store.RoleSet, patch ProjectPatch) (*ProjectDetail, error) {
	old, err := s.wf.LoadProject(ctx, cur, 0)
	if err != nil && !errors.Is(err, workflow.ErrNoSchema) {
		return nil, err
	}
	curDoc := &workflow.SchemaDoc{}
	if old != nil {
		curDoc = old.Doc()
	}
	next := curDoc
	if patch.Schema != nil {
		next = &workflow.SchemaDoc{Schema: *patch.Schema, Forms: patch.Forms}
		next.Schema.Version = cur.SchemaVersion + 1
	}
	pol := patch.Workflow
	if pol == nil {
		cp, err := workflow.ParsePolicy(cur.Workflow)
		if err != nil {
			return nil, err
		}
		pol = &cp
	}
	checked, err := checkDoc(next, pol)
	if err != nil {
		return nil, err
	}
	p := *cur
	fe := tasks.FieldErrors{}
	if patch.Name != nil {
		p.Name = workflow.CheckName(fe, "name", *patch.Name)
	}
	if patch.Description != nil {
		p.Description = *patch.Description
	}
	if patch.Guidelines != nil {
		p.Guidelines = *patch.Guidelines
	}
	checkTexts(fe, p.Description, p.Guidelines)
	if patch.Balance != nil {
		workflow.CheckBalanceTargets(fe, patch.Balance, &next.Schema)
		p.Balance = workflow.Encode(patch.Balance)
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	p.Workflow = workflow.Encode(checked)
	newVersion := patch.Schema != nil && NeedsNewVersion(curDoc, next)
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if newVersion {
			sv := &store.SchemaVersion{ProjectID: p.ID, Version: next.Schema.Version, Schema: workflow.Encode(next), Hash: next.Hash(), CreatedBy: actorID}
			if err := tx.CreateSchemaVersion(ctx, sv); err != nil {
				return err
			}
			p.SchemaVersion = next.Schema.Version
		}
		if err := tx.UpdateProject(ctx, &p); err != nil {
			return err
		}
		return tx.Audit(ctx, p.ID, actorID, "project.update", "project:"+p.ID, projectView(cur), projectView(&p))
	})
	if err != nil {
		return nil, err
	}
	return detail(&p, checked, next, roles), nil
}

// NeedsNewVersion is the versioning rule: a new version whenever the document's content
// changes (help text and anchor wording included: an answer is only interpretable under the
// exact text its author was shown).
func NeedsNewVersion(cur, next *workflow.SchemaDoc) bool { return cur.Hash() != next.Hash() }

// Detail is the project as a member with the given roles sees it.
func (s *Service) Detail(ctx context.Context, p *store.Project, roles store.RoleSet) (*ProjectDetail, error) {
	fp, err := s.wf.LoadProject(ctx, p, 0)
	if errors.Is(err, workflow.ErrNoSchema) {
		pol, err := workflow.ParsePolicy(p.Workflow)
		return detail(p, pol, &workflow.SchemaDoc{}, roles), err
	}
	if err != nil {
		return nil, err
	}
	return detail(p, fp.Policy, fp.Doc(), roles), nil
}

func detail(p *store.Project, pol workflow.Policy, doc *workflow.SchemaDoc, roles store.RoleSet) *ProjectDetail {
	if d := pol.DraftFromPredictions; d != nil && !roles.Has(store.RoleLead) {
		redacted := *d
		redacted.Model = ""
		pol.DraftFromPredictions = &redacted
	}
	if !seesGold(roles) {
		// note: as a project without gold reads, defaults and all
		none := workflow.Policy{}.Defaults()
		pol.GoldRate, pol.GoldMinAccuracy, pol.GoldWindow, pol.GoldPause = none.GoldRate, none.GoldMinAccuracy, none.GoldWindow, none.GoldPause
	}
	d := &ProjectDetail{ID: p.ID, Name: p.Name, Description: p.Description, Template: p.Template, Workflow: pol,
		Guidelines: p.Guidelines, ArchivedAt: p.ArchivedAt,
		SchemaVersion: p.SchemaVersion, CreatedBy: p.CreatedBy, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, MyRoles: roles}
	if p.SchemaVersion > 0 {
		d.Schema, d.Forms = &doc.Schema, doc.Forms
	}
	d.Balance, _ = workflow.ParseBalanceTargets(p.Balance)
	return d
}

// Projects lists the projects a user may open (every project for administrators) with the
// user's roles in each; archived ones only when asked for.
func (s *Service) Projects(ctx context.Context, u *store.User, archived bool) ([]ProjectSummary, error) {
	filter := u.ID
	if u.IsAdmin {
		filter = ""
	}
	ps, err := s.store.Projects(ctx, filter, archived)
	if err != nil {
		return nil, err
	}
	roles, err := s.store.MemberRoles(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	out := make([]ProjectSummary, len(ps))
	for i := range ps {
		mine := RolesIn(u, roles[ps[i].ID])
		v := projectView(&ps[i])
		v.Workflow = seenWorkflow(v.Workflow, mine)
		out[i] = ProjectSummary{*v, mine}
	}
	return out, nil
}

// The policy as a member reads it: the drafting model stays with leads (others only see that
// drafts exist), and how gold items are mixed in stays with leads and viewers, so that nobody
// who does the work can tell a gold item from another.

// seesGold reports whether a member with roles may read the policy's gold settings.
func seesGold(roles store.RoleSet) bool {
	return roles.Has(store.RoleLead) || roles.Has(store.RoleViewer)
}

// seenWorkflow is a stored policy with what the member may not read taken out.
func seenWorkflow(raw store.JSON, roles store.RoleSet) store.JSON {
	if roles.Has(store.RoleLead) || len(raw) == 0 {
		return raw
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	if d, ok := m["draft_from_predictions"]; ok {
		var draft map[string]json.RawMessage
		if json.Unmarshal(d, &draft) == nil {
			delete(draft, "model")
			m["draft_from_predictions"] = json.RawMessage(workflow.Encode(draft))
		}
	}
	if !seesGold(roles) {
		for _, k := range []string{"gold_rate", "gold_min_accuracy", "gold_window", "gold_pause"} {
			delete(m, k)
		}
	}
	return workflow.Encode(m)
}

// MemberResult is what setting someone's roles did: "added" (their roles are set now),
// "invited" (they join when they accept) or "removed".
type MemberResult struct {
	Status string        `json:"status"`
	UserID string        `json:"user_id,omitempty"`
	Email  string        `json:"email"`
	Name   string        `json:"name,omitempty"`
	Roles  store.RoleSet `json:"roles"`
	Paused *bool         `json:"paused,omitempty"`
	// Qualified is the member's qualification, when the change set it.
	Qualified *bool `json:"qualified,omitempty"`
	// Languages are the languages the member reads, when the change named them or a pause or
	// qualification (empty: every language).
	Languages []string `json:"languages,omitempty"`
}

// Member statuses of a MemberResult.
const (
	MemberAdded   = "added"
	MemberInvited = "invited"
	MemberRemoved = "removed"
)

// SetMember gives the person named by ref (a user id, or an email address) exactly these
// roles in the project; no roles removes them. A member's roles change at once, and an
// administrator adds anyone at once. Anyone else is invited by email and joins on accepting:
// the answer is the same whether or not the email has an account, so a lead cannot probe who
// uses the server.
func (s *Service) SetMember(ctx context.Context, actor *store.User, projectID, ref string, roles []store.Role) (*MemberResult, error) {
	if err := checkRoles(roles); err != nil {
		return nil, err
	}
	set := store.RoleSet(roles).Normalize()
	target, err := s.memberByRef(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	if target == nil && actor.IsAdmin {
		if target, err = s.userByRef(ctx, ref); err != nil {
			return nil, err
		}
	}
	if target == nil {
		return s.invite(ctx, actor, projectID, ref, set)
	}
	if err := s.setRoles(ctx, actor.ID, projectID, target.ID, set); err != nil {
		return nil, err
	}
	status := MemberAdded
	if len(set) == 0 {
		status = MemberRemoved
	}
	return &MemberResult{Status: status, UserID: target.ID, Email: target.Email, Name: target.Name, Roles: set}, nil
}

// memberByRef returns the project member named by ref, or nil when ref names no member.
func (s *Service) memberByRef(ctx context.Context, projectID, ref string) (*store.User, error) {
	u, err := s.userByRef(ctx, ref)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.store.Member(ctx, projectID, u.ID); errors.Is(err, store.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return u, nil
}

// invite offers roles to an email; the answer never says whether the email has an account.
func (s *Service) invite(ctx context.Context, actor *store.User, projectID, ref string, set store.RoleSet) (*MemberResult, error) {
	if !strings.Contains(ref, "@") {
		return nil, tasks.Field("uid", "invite_by_email", "people who are not members yet are invited by their email address")
	}
	email := store.NormalizeEmail(ref)
	err := s.store.WithTx(ctx, func(tx *store.Store) error {
		if len(set) == 0 {
			if err := tx.DeleteInvitationOf(ctx, projectID, email); err != nil {
				return err
			}
			return tx.Audit(ctx, projectID, actor.ID, "member.uninvite", "email:"+email, nil, nil)
		}
		if err := tx.PutInvitation(ctx, &store.Invitation{ProjectID: projectID, Email: email, Roles: set, InvitedBy: actor.ID}); err != nil {
			return err
		}
		return tx.Audit(ctx, projectID, actor.ID, "member.invite", "email:"+email, nil, set)
	})
	if err != nil {
		return nil, err
	}
	status := MemberInvited
	if len(set) == 0 {
		status = MemberRemoved
	}
	return &MemberResult{Status: status, Email: email, Roles: set}, nil
}

// setRoles sets a user's roles in a project: the last lead stays, and work of a lost role is
// given back.
func (s *Service) setRoles(ctx context.Context, actorID, projectID, userID string, set store.RoleSet) error {
	return s.store.WithTx(ctx, func(tx *store.Store) error {
		// note: membership changes of a project are serialised, so two leads cannot remove each
		// other at the same moment
		if _, err := tx.ProjectForUpdate(ctx, projectID); err != nil {
			return err
		}
		before, err := tx.Member(ctx, projectID, userID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if before.Roles.Has(store.RoleLead) && !set.Has(store.RoleLead) {
			if err := lastLead(ctx, tx, projectID); err != nil {
				return err
			}
		}
		if err := tx.SetMember(ctx, projectID, userID, set); err != nil {
			return err
		}
		if err := s.releaseLostStages(ctx, tx, projectID, actorID, userID, before.Roles, set); err != nil {
			return err
		}
		return tx.Audit(ctx, projectID, actorID, "member.set", "user:"+userID, before.Roles, set)
	})
}

// Invitations lists a project's open invitations, for its leads.
func (s *Service) Invitations(ctx context.Context, projectID string) ([]InvitationView, error) {
	is, err := s.store.ProjectInvitations(ctx, projectID)
	return invitationViews(is), err
}

// MyInvitations lists the invitations waiting for the user.
func (s *Service) MyInvitations(ctx context.Context, u *store.User) ([]MyInvitationView, error) {
	is, err := s.store.InvitationsFor(ctx, u.Email)
	return myInvitationViews(is), err
}

// AnswerInvitation accepts (the user joins with the invited roles, added to any they have) or
// declines an invitation to the user's email. Other people's invitations do not exist.
func (s *Service) AnswerInvitation(ctx context.Context, u *store.User, id string, accept bool) error {
	inv, err := s.store.Invitation(ctx, id)
	if err != nil || inv.Email != store.NormalizeEmail(u.Email) {
		return store.Missing(orNotFound(err), "invitation")
	}
	if accept {
		m, err := s.store.Member(ctx, inv.ProjectID, u.ID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := s.setRoles(ctx, u.ID, inv.ProjectID, u.ID, append(m.Roles, inv.Roles...).Normalize()); err != nil {
			return err
		}
	}
	action := map[bool]string{true: "member.accept", false: "member.decline"}[accept]
	return s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := tx.DeleteInvitation(ctx, inv.ID); err != nil {
			return err
		}
		return tx.Audit(ctx, inv.ProjectID, u.ID, action, "user:"+u.ID, nil, inv.Roles)
	})
}

// orNotFound is err, or ErrNotFound when there was no error (a row that is not the caller's).
func orNotFound(err error) error {
	if err == nil {
		return store.ErrNotFound
	}
	return err
}

// ErrCannotCreate refuses project creation to people an administrator has not allowed it.
var ErrCannotCreate = errors.New("creating projects needs an administrator's permission")

// ErrLastLead refuses to leave a project without a lead.
var ErrLastLead = errors.New("this is the project's last lead; make someone else a lead first")

// lastLead refuses when the project has one lead left.
func lastLead(ctx context.Context, tx *store.Store, projectID string) error {
	ms, err := tx.Members(ctx, projectID)
	if err != nil {
		return err
	}
	leads := 0
	for _, m := range ms {
		if m.Roles.Has(store.RoleLead) {
			leads++
		}
	}
	if leads <= 1 {
		return ErrLastLead
	}
	return nil
}

// releaseLostStages gives back the open work of stages whose role a member just lost: nobody
// finishes work in a role they no longer hold.
func (s *Service) releaseLostStages(ctx context.Context, tx *store.Store, projectID, actorID, userID string, before, after store.RoleSet) error {
	var lost []flow.Stage
	for _, stage := range flow.WorkStages {
		if role := stage.Role(); before.Has(role) && !after.Has(role) {
			lost = append(lost, stage)
		}
	}
	if len(lost) == 0 {
		return nil
	}
	ids, err := tx.ExpireOpenAssignments(ctx, projectID, userID, lost)
	if err != nil || len(ids) == 0 {
		return err
	}
	return tx.Audit(ctx, projectID, actorID, "assignment.release_on_role_change", "user:"+userID, nil,
		map[string]any{"assignments": ids, "stages": lost})
}

func checkRoles(roles []store.Role) error {
	fe := tasks.FieldErrors{}
	if roles == nil {
		fe.Add("roles", "required", "roles is required (an empty list removes the member)")
	}
	for i, r := range roles {
		if !r.Valid() {
			fe.Add("roles["+strconv.Itoa(i)+"]", "unknown_role", "%q is not one of %v", r, store.Roles)
		}
	}
	return fe.Err()
}

func (s *Service) userByRef(ctx context.Context, ref string) (*store.User, error) {
	var u *store.User
	var err error
	if strings.Contains(ref, "@") {
		u, err = s.store.UserByEmail(ctx, ref)
	} else {
		u, err = s.store.User(ctx, ref)
	}
	return u, store.Missing(err, "user")
}
