package store

import (
	"context"
	"database/sql/driver"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm/clause"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// Role is what a member may do in a project; the roles are those of the task schema's views.
type Role = tasks.Role

// The project roles.
const (
	RoleLead        = tasks.RoleLead
	RoleAnnotator   = tasks.RoleAnnotator
	RoleReviewer    = tasks.RoleReviewer
	RoleAdjudicator = tasks.RoleAdjudicator
	RoleViewer      = tasks.RoleViewer
)

// Roles lists every role in a stable order.
var Roles = tasks.Roles

// Project is a unit of annotation work.
type Project struct {
	ID            string `gorm:"primaryKey"`
	Name          string
	Description   string
	Template      string
	Workflow      JSON
	Guidelines    string
	SchemaVersion int
	ArchivedAt    *time.Time
	StorageQuota  *int64
	Balance       JSON // balance targets, as workflow.BalanceTargets
	CreatedBy     string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Member is a user's membership of a project.
type Member struct {
	ProjectID string  `gorm:"primaryKey"`
	UserID    string  `gorm:"primaryKey"`
	Roles     RoleSet `gorm:"type:text"`
	Qualified bool
	CreatedAt time.Time
	UpdatedAt time.Time
	// Paused members get no label or criteria work until a lead lifts the pause.
	Paused bool
	// GoldSince starts the member's gold window (when a pause was last lifted).
	GoldSince *time.Time
}

// TableName names the members table.
func (Member) TableName() string { return "project_members" }

// CreateProject inserts a project, its first schema version when schema is not nil, and makes
// its creator a lead, in one transaction.
func (s *Store) CreateProject(ctx context.Context, p *Project, schema *SchemaVersion) error {
	if p.ID == "" {
		p.ID = newID()
	}
	if len(p.Workflow) == 0 {
		p.Workflow = JSON("{}")
	}
	return s.WithTx(ctx, func(tx *Store) error {
		if schema != nil {
			p.SchemaVersion = schema.Version
		}
		if err := tx.db.Create(p).Error; err != nil {
			return translate(err)
		}
		if schema != nil {
			schema.ProjectID, schema.CreatedBy = p.ID, p.CreatedBy
			if err := tx.CreateSchemaVersion(ctx, schema); err != nil {
				return err
			}
		}
		return tx.SetMember(ctx, p.ID, p.CreatedBy, RoleSet{RoleLead})
	})
}

// UpdateProject writes a project's editable fields.
func (s *Store) UpdateProject(ctx context.Context, p *Project) error {
	p.UpdatedAt = now()
	return translate(s.db.WithContext(ctx).Model(p).Select("name", "description", "workflow", "guidelines", "schema_version", "balance", "updated_at").Updates(p).Error)
}

// SetProjectArchived archives a project at a time, or restores it with nil.
func (s *Store) SetProjectArchived(ctx context.Context, id string, at *time.Time) error {
	return translate(s.db.WithContext(ctx).Model(&Project{}).Where("id = ?", id).
		Updates(map[string]any{"archived_at": at, "updated_at": now()}).Error)
}

// SetStorageQuota sets a project's quota in bytes; nil is unlimited.
func (s *Store) SetStorageQuota(ctx context.Context, id string, bytes *int64) error {
	return translate(s.db.WithContext(ctx).Model(&Project{}).Where("id = ?", id).
		Updates(map[string]any{"storage_quota": bytes, "updated_at": now()}).Error)
}

// DeleteProject deletes a project and, by cascade, everything in it; its audit trail stays.
func (s *Store) DeleteProject(ctx context.Context, id string) error {
	return translate(s.db.WithContext(ctx).Where("id = ?", id).Delete(&Project{}).Error)
}

// SchemaVersionUse is one schema version of a project with how many assignments were made
// with it.
type SchemaVersionUse struct {
	Version     int
	Hash        string
	CreatedBy   string
	CreatedAt   time.Time
	Assignments int64
	Submitted   int64
}

// SchemaVersions lists a project's schema versions, newest first, with their use.
func (s *Store) SchemaVersions(ctx context.Context, projectID string) ([]SchemaVersionUse, error) {
	out := []SchemaVersionUse{}
	err := s.db.WithContext(ctx).Table("project_schemas v").
		Select(`v.version, v.hash, v.created_by, v.created_at,
  (SELECT COUNT(*) FROM assignments a WHERE a.project_id = v.project_id AND a.schema_version = v.version) AS assignments,
  (SELECT COUNT(*) FROM assignments a WHERE a.project_id = v.project_id AND a.schema_version = v.version AND a.status = 'submitted') AS submitted`).
		Where("v.project_id = ?", projectID).Order("v.version DESC").Scan(&out).Error
	return out, translate(err)
}

// SchemaVersion is one version of a project's task schema.
type SchemaVersion struct {
	ProjectID string `gorm:"primaryKey"`
	Version   int    `gorm:"primaryKey"`
	Schema    JSON
	Hash      string
	CreatedBy string
	CreatedAt time.Time
}

// TableName names the schema versions table.
func (SchemaVersion) TableName() string { return "project_schemas" }

// CreateSchemaVersion stores a new schema version.
func (s *Store) CreateSchemaVersion(ctx context.Context, v *SchemaVersion) error {
	if v.CreatedAt.IsZero() {
		v.CreatedAt = now()
	}
	return translate(s.db.WithContext(ctx).Create(v).Error)
}

// ProjectSchema returns one schema version of a project.
func (s *Store) ProjectSchema(ctx context.Context, projectID string, version int) (*SchemaVersion, error) {
	var v SchemaVersion
	err := s.db.WithContext(ctx).Where("project_id = ? AND version = ?", projectID, version).Take(&v).Error
	return &v, translate(err)
}

// Project returns a project by id.
func (s *Store) Project(ctx context.Context, id string) (*Project, error) {
	var p Project
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&p).Error
	return &p, translate(err)
}

// ProjectForUpdate reads a project and, on PostgreSQL, locks its row until the transaction ends.
func (s *Store) ProjectForUpdate(ctx context.Context, id string) (*Project, error) {
	var p Project
	q := s.db.WithContext(ctx).Where("id = ?", id)
	if s.dialect == Postgres {
		q = q.Clauses(lockingUpdate())
	}
	return &p, translate(q.Take(&p).Error)
}

// Projects lists the projects that are not archived (archived ones with archived), all of them,
// or only those userID belongs to when userID is not empty.
func (s *Store) Projects(ctx context.Context, userID string, archived bool) ([]Project, error) {
	q := s.db.WithContext(ctx).Model(&Project{}).Order("projects.created_at, projects.id")
	if archived {
		q = q.Where("projects.archived_at IS NOT NULL")
	} else {
		q = q.Where("projects.archived_at IS NULL")
	}
	if userID != "" {
		q = q.Joins("JOIN project_members m ON m.project_id = projects.id AND m.user_id = ?", userID)
	}
	var ps []Project
	return ps, translate(q.Find(&ps).Error)
}

// Member returns the membership of a user in a project.
func (s *Store) Member(ctx context.Context, projectID, userID string) (*Member, error) {
	var m Member
	err := s.db.WithContext(ctx).Where("project_id = ? AND user_id = ?", projectID, userID).Take(&m).Error
	return &m, translate(err)
}

// MemberRoles maps each project the user belongs to onto their roles there.
func (s *Store) MemberRoles(ctx context.Context, userID string) (map[string]RoleSet, error) {
	var ms []Member
	if err := s.db.WithContext(ctx).Where("user_id = ?", userID).Find(&ms).Error; err != nil {
		return nil, translate(err)
	}
	out := make(map[string]RoleSet, len(ms))
	for _, m := range ms {
		out[m.ProjectID] = m.Roles
	}
	return out, nil
}

// MemberView is a member with the user's name and email.
type MemberView struct {
	UserID string
	Email  string
	Name   string
	Roles  RoleSet `gorm:"type:text"`
	Paused bool
	// Qualified says the member passed a calibration round or a lead qualified them.
	Qualified bool
	// Languages are the languages the member reads (BCP 47); empty means every language.
	Languages []string `gorm:"-"`
}

// Members lists the members of a project with their names.
func (s *Store) Members(ctx context.Context, projectID string) ([]MemberView, error) {
	ms := []MemberView{}
	err := s.db.WithContext(ctx).Table("project_members m").
		Select("m.user_id, u.email, u.name, m.roles, m.paused, m.qualified").
		Joins("JOIN users u ON u.id = m.user_id").
		Where("m.project_id = ?", projectID).Order("u.email").Scan(&ms).Error
	return ms, translate(err)
}

// SetMember gives a user exactly these roles in a project; an empty set removes the member.
func (s *Store) SetMember(ctx context.Context, projectID, userID string, roles RoleSet) error {
	db := s.db.WithContext(ctx)
	if len(roles) == 0 {
		return translate(db.Where("project_id = ? AND user_id = ?", projectID, userID).Delete(&Member{}).Error)
	}
	t := now()
	m := Member{ProjectID: projectID, UserID: userID, Roles: roles.Normalize(), CreatedAt: t, UpdatedAt: t}
	return translate(db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "project_id"}, {Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"roles", "updated_at"}),
	}).Create(&m).Error)
}

// RoleSet is a set of roles, stored as comma-separated text.
type RoleSet []Role

// Has reports whether any of the given roles is in the set.
func (rs RoleSet) Has(roles ...Role) bool {
	for _, r := range roles {
		if slices.Contains(rs, r) {
			return true
		}
	}
	return false
}

// Normalize sorts the roles in their canonical order and drops duplicates.
func (rs RoleSet) Normalize() RoleSet {
	out := RoleSet{}
	for _, r := range Roles {
		if rs.Has(r) {
			out = append(out, r)
		}
	}
	return out
}

// Scan reads the stored text form.
func (rs *RoleSet) Scan(v any) error {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		s = string(x)
	}
	*rs = RoleSet{}
	for _, part := range strings.Split(s, ",") {
		if part != "" {
			*rs = append(*rs, Role(part))
		}
	}
	return nil
}

// Value writes the stored text form.
func (rs RoleSet) Value() (driver.Value, error) {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = string(r)
	}
	return strings.Join(parts, ","), nil
}
