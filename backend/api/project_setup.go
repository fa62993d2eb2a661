package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// schemaDoc is how a project's schema version is stored: the schema and its extra forms.
type schemaDoc = workflow.SchemaDoc

type createProjectRequest struct {
	Name        string                  `json:"name"`
	Description string                  `json:"description"`
	Template    string                  `json:"template"`
	Schema      *tasks.Schema           `json:"schema"`
	Forms       map[string]tasks.Schema `json:"forms"`
	Workflow    *workflow.Policy        `json:"workflow"`
}

// setup resolves the template or schema and checks the policy against it.
func (r *createProjectRequest) setup() (*schemaDoc, workflow.Policy, error) {
	fe := FieldErrors{}
	if n := len(strings.TrimSpace(r.Name)); n == 0 || n > 200 {
		fe["name"] = FieldError{"invalid_length", "name must be 1 to 200 characters"}
	}
	if len(r.Description) > 10_000 {
		fe["description"] = FieldError{"too_long", "description must be at most 10000 characters"}
	}
	doc := &schemaDoc{Schema: tasks.Schema{Inputs: []tasks.Input{}, Questions: []tasks.Question{}}}
	switch {
	case r.Template != "" && r.Schema != nil:
		fe["template"] = FieldError{"conflict", "give a template or a schema, not both"}
	case r.Template != "":
		t, ok := tasks.LookupTemplate(r.Template)
		if !ok {
			fe["template"] = FieldError{"unknown_template", "no template " + r.Template + "; GET /api/v1/templates lists them"}
			break
		}
		doc.Schema, doc.Forms = t.Schema, map[string]tasks.Schema{}
		for _, f := range t.Forms {
			doc.Forms[f.Key] = f.Schema
		}
	case r.Schema != nil:
		doc.Schema, doc.Forms = *r.Schema, r.Forms
	}
	if err := fe.Err(); err != nil {
		return nil, workflow.Policy{}, err
	}
	pol, err := checkSchemaAndPolicy(doc, r.Workflow)
	return doc, pol, err
}

// checkSchemaAndPolicy validates a schema document (when it has questions) and a policy.
func checkSchemaAndPolicy(doc *schemaDoc, p *workflow.Policy) (workflow.Policy, error) {
	pol := workflow.Policy{}
	if p != nil {
		pol = *p
	}
	pol = pol.Defaults()
	if len(doc.Schema.Questions) > 0 {
		doc.Schema.Version = max(doc.Schema.Version, 1)
		if err := doc.Schema.Validate(); err != nil {
			return pol, prefixed(err, "schema.")
		}
		for key, f := range doc.Forms {
			if err := f.Validate(); err != nil {
				return pol, prefixed(err, "forms."+key+".")
			}
		}
	}
	return pol, validationError(pol.Validate(&doc.Schema, doc.Forms))
}

func prefixed(err error, prefix string) error {
	var fe tasks.FieldErrors
	if !errors.As(err, &fe) {
		return err
	}
	out := tasks.FieldErrors{}
	for k, v := range fe {
		out[prefix+k] = v
	}
	return validationError(out)
}

func (s *Server) createProject(c *gin.Context) error {
	var req createProjectRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	doc, pol, err := req.setup()
	if err != nil {
		return err
	}
	u := currentUser(c)
	p := &store.Project{Name: strings.TrimSpace(req.Name), Description: req.Description, Template: req.Template,
		Workflow: mustJSON(pol), CreatedBy: u.ID}
	var sv *store.SchemaVersion
	if len(doc.Schema.Questions) > 0 {
		sv = &store.SchemaVersion{Version: doc.Schema.Version, Schema: mustJSON(doc), Hash: doc.Schema.ContentHash()}
	}
	if err := s.store.CreateProject(c.Request.Context(), p, sv); err != nil {
		return err
	}
	s.audit(c, p.ID, "project.create", "project:"+p.ID, nil, p)
	c.JSON(http.StatusCreated, s.projectDetail(c, p, store.RoleSet{store.RoleLead}))
	return nil
}

// projectDetail is a project with its current schema (as the caller may see it) and policy.
func (s *Server) projectDetail(c *gin.Context, p *store.Project, roles store.RoleSet) gin.H {
	out := gin.H{"id": p.ID, "name": p.Name, "description": p.Description, "template": p.Template,
		"workflow": p.Workflow, "schema_version": p.SchemaVersion, "created_by": p.CreatedBy,
		"created_at": p.CreatedAt, "updated_at": p.UpdatedAt, "my_roles": roles, "schema": nil}
	if doc, err := s.currentDoc(c, p); err == nil && p.SchemaVersion > 0 {
		out["schema"], out["forms"] = doc.Schema, doc.Forms
	}
	return out
}

func (s *Server) getProject(c *gin.Context) error {
	c.JSON(http.StatusOK, s.projectDetail(c, currentProject(c), projectRoles(c)))
	return nil
}

type patchProjectRequest struct {
	Name        *string                 `json:"name"`
	Description *string                 `json:"description"`
	Schema      *tasks.Schema           `json:"schema"`
	Forms       map[string]tasks.Schema `json:"forms"`
	Workflow    *workflow.Policy        `json:"workflow"`
}

// patchProject edits a project. A schema whose content changed becomes a new version;
// annotations keep the version they were made with.
func (s *Server) patchProject(c *gin.Context) error {
	var req patchProjectRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request.Context()
	p := *currentProject(c)
	cur, err := s.currentDoc(c, &p)
	if err != nil {
		return err
	}
	next := cur
	if req.Schema != nil {
		next = &schemaDoc{Schema: *req.Schema, Forms: req.Forms}
		next.Schema.Version = p.SchemaVersion + 1
	}
	pol := req.Workflow
	if pol == nil {
		old, err := workflow.ParsePolicy(p.Workflow)
		if err != nil {
			return err
		}
		pol = &old
	}
	checked, err := checkSchemaAndPolicy(next, pol)
	if err != nil {
		return err
	}
	if req.Name != nil {
		if n := len(strings.TrimSpace(*req.Name)); n == 0 || n > 200 {
			return FieldErrors{"name": {"invalid_length", "name must be 1 to 200 characters"}}.Err()
		}
		p.Name = strings.TrimSpace(*req.Name)
	}
	if req.Description != nil {
		p.Description = *req.Description
	}
	p.Workflow = mustJSON(checked)
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if req.Schema != nil && next.Schema.ContentHash() != hashOf(cur) {
			sv := &store.SchemaVersion{ProjectID: p.ID, Version: next.Schema.Version, Schema: mustJSON(next), Hash: next.Schema.ContentHash(), CreatedBy: currentUser(c).ID}
			if err := tx.CreateSchemaVersion(ctx, sv); err != nil {
				return err
			}
			p.SchemaVersion = next.Schema.Version
		}
		return tx.UpdateProject(ctx, &p)
	})
	if err != nil {
		return err
	}
	s.audit(c, p.ID, "project.update", "project:"+p.ID, currentProject(c), p)
	c.JSON(http.StatusOK, s.projectDetail(c, &p, projectRoles(c)))
	return nil
}

func hashOf(d *schemaDoc) string {
	if d == nil {
		return ""
	}
	return d.Schema.ContentHash()
}

func (s *Server) currentDoc(c *gin.Context, p *store.Project) (*schemaDoc, error) {
	if p.SchemaVersion == 0 {
		return &schemaDoc{}, nil
	}
	sv, err := s.store.ProjectSchema(c.Request.Context(), p.ID, p.SchemaVersion)
	if err != nil {
		return nil, err
	}
	var d schemaDoc
	return &d, json.Unmarshal(sv.Schema, &d)
}

func mustJSON(v any) store.JSON {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // note: only called with plain data types
	}
	return store.JSON(b)
}
