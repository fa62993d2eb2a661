package store

import (
	"context"
	"time"

	"gorm.io/gorm/clause"
)

// Invitation offers a person (by email) roles in a project until they accept or decline.
type Invitation struct {
	ID        string `gorm:"primaryKey"`
	ProjectID string
	Email     string
	Roles     RoleSet `gorm:"type:text"`
	InvitedBy string
	CreatedAt time.Time
}

// TableName names the invitations table.
func (Invitation) TableName() string { return "project_invitations" }

// PutInvitation invites an email to a project, or replaces the roles of its open invitation.
func (s *Store) PutInvitation(ctx context.Context, inv *Invitation) error {
	if inv.ID == "" {
		inv.ID = newID()
	}
	inv.Email, inv.CreatedAt = NormalizeEmail(inv.Email), now()
	return translate(s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "project_id"}, {Name: "email"}},
		DoUpdates: clause.AssignmentColumns([]string{"roles", "invited_by", "created_at"}),
	}).Create(inv).Error)
}

// Invitation returns an invitation by id.
func (s *Store) Invitation(ctx context.Context, id string) (*Invitation, error) {
	var inv Invitation
	return &inv, translate(s.db.WithContext(ctx).Where("id = ?", id).Take(&inv).Error)
}

// ProjectInvitations lists a project's open invitations.
func (s *Store) ProjectInvitations(ctx context.Context, projectID string) ([]Invitation, error) {
	out := []Invitation{}
	return out, translate(s.db.WithContext(ctx).Where("project_id = ?", projectID).Order("email").Find(&out).Error)
}

// InvitationView is an invitation as its invitee sees it.
type InvitationView struct {
	ID          string
	ProjectID   string
	ProjectName string
	Roles       RoleSet `gorm:"type:text"`
	InvitedBy   string
	CreatedAt   time.Time
}

// InvitationsFor lists the open invitations of an email, with project names and inviters.
func (s *Store) InvitationsFor(ctx context.Context, email string) ([]InvitationView, error) {
	out := []InvitationView{}
	err := s.db.WithContext(ctx).Table("project_invitations i").
		Select("i.id, i.project_id, p.name AS project_name, i.roles, u.name AS invited_by, i.created_at").
		Joins("JOIN projects p ON p.id = i.project_id").Joins("JOIN users u ON u.id = i.invited_by").
		Where("i.email = ? AND p.archived_at IS NULL", NormalizeEmail(email)).Order("i.created_at").Scan(&out).Error
	return out, translate(err)
}

// DeleteInvitation removes an invitation.
func (s *Store) DeleteInvitation(ctx context.Context, id string) error {
	return translate(s.db.WithContext(ctx).Where("id = ?", id).Delete(&Invitation{}).Error)
}

// DeleteInvitationOf removes the invitation of an email to a project, if there is one.
func (s *Store) DeleteInvitationOf(ctx context.Context, projectID, email string) error {
	return translate(s.db.WithContext(ctx).Where("project_id = ? AND email = ?", projectID, NormalizeEmail(email)).Delete(&Invitation{}).Error)
}
