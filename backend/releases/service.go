// Package releases makes a project's releases: its adjudicated ground truth written by the
// exports writers into the blob store under releases/<project>/<release>/, as a background job
// that any replica may run, and served back file by file or as one zip.
//
// The rules of a release live here: what a request may ask and what is checked before a job
// starts (formats, options, split keys, something done), which items go in and how they are
// read, what counts as done (every file written and listed in one transaction with the
// manifest) and what a failed release leaves (its error, and no file listed).
package releases

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/backend/flow"
	"github.com/arbiter-annotation/arbiter/backend/insight"
	quota "github.com/arbiter-annotation/arbiter/backend/media"
	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/backend/workflow"
	"github.com/arbiter-annotation/arbiter/exports"
)

// Enqueuer queues a release's job inside the caller's transaction, so that a release is never
// queued without the job that works it.
type Enqueuer interface {
	// EnqueueRelease queues the release with the given id in the transaction tx.
	EnqueueRelease(ctx context.Context, tx *store.Store, releaseID string) error
}

// MaxUnfinished is how many releases of one project may be queued or running at once.
const MaxUnfinished = 3

// Errors of releases; the API maps each to a status and a stable code.
var (
	ErrNoJobs  = errors.New("background jobs are not running on this server, and releases run as jobs")
	ErrNotDone = errors.New("this release is not done: its files are served once it is")
)

// Deps are what the release service needs.
type Deps struct {
	Store   *store.Store
	Blobs   blob.Store
	Flow    *workflow.Service
	Insight *insight.Service // the dataset report's figures for the card
	// Version is the arbiter version written into every manifest.
	Version string
	// PublicURL prefixes relative signed URLs (local blobs) of media referenced by a release.
	PublicURL string
	Log       *slog.Logger
}

// Service makes and serves releases.
type Service struct {
	store     *store.Store
	blobs     blob.Store
	flow      *workflow.Service
	insight   *insight.Service
	jobs      Enqueuer
	version   string
	publicURL string
	log       *slog.Logger
	now       func() time.Time
}

// New returns the release service; UseJobs wires the job queue once it exists.
func New(d Deps) *Service {
	log := d.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{store: d.Store, blobs: d.Blobs, flow: d.Flow, insight: d.Insight, version: d.Version, publicURL: d.PublicURL, log: log,
		now: func() time.Time { return time.Now().UTC() }}
}

// UseJobs lets the service queue release jobs (the workers call back into the service, so it
// is wired after both exist).
func (s *Service) UseJobs(e Enqueuer) { s.jobs = e }

// Request asks for a release: a name, the formats and their options (see exports.ParseSpec).
type Request struct {
	Name    string         `json:"name"`
	Formats []string       `json:"formats"`
	Options map[string]any `json:"options"`
}

// Release is a release as clients see it.
type Release struct {
	ID            string             `json:"id"`
	Name          string             `json:"name"`
	Status        flow.ReleaseStatus `json:"status"`
	Formats       []string           `json:"formats"`
	Options       map[string]any     `json:"options"`
	SchemaVersion int                `json:"schema_version"`
	Progress      Progress           `json:"progress"`
	// MediaLinksExpireAt is, for a release by reference (option media "reference"), when the
	// signed links to uploaded media in its files stop working; absent when media are copied.
	MediaLinksExpireAt *time.Time `json:"media_links_expire_at,omitempty"`
	Error              *string    `json:"error,omitempty"`
	Summary            *Summary   `json:"summary,omitempty"`
	// Manifest is manifest.json of a done release; only a single release carries it.
	Manifest   json.RawMessage `json:"manifest,omitempty"`
	CreatedBy  string          `json:"created_by"`
	CreatedAt  time.Time       `json:"created_at"`
	UpdatedAt  time.Time       `json:"updated_at"`
	FinishedAt *time.Time      `json:"finished_at,omitempty"`
}

// Progress counts the items a release has read of those it will read.
type Progress struct {
	Records int64 `json:"records"`
	Total   int64 `json:"total"`
}

// Summary is what a done release holds, from its manifest: every count is the manifest's one
// tally (the dataset card's too), the headline ones repeated at the top.
type Summary struct {
	Records      int64            `json:"records"`
	BySplit      map[string]int64 `json:"by_split"`
	ByProvenance map[string]int64 `json:"by_provenance"`
	// ByLanguage counts records per item language ("und" for none); absent when no item has one.
	ByLanguage map[string]int64 `json:"by_language,omitempty"`
	// Tally is the whole count: items read, left out by reason, dropped by reason, skips,
	// criteria removed in QC, and what each format holds.
	Tally exports.Tally `json:"tally"`
	Files int           `json:"files"`
	Bytes int64         `json:"bytes"`
}

// view turns a stored release into what clients see; withManifest adds the manifest.
func view(r *store.Release, withManifest bool) Release {
	v := Release{ID: r.ID, Name: r.Name, Status: r.Status, Formats: []string{}, Options: map[string]any{},
		SchemaVersion: r.SchemaVersion, Progress: Progress{Records: r.RecordsDone, Total: r.RecordsTotal}, Error: r.Error,
		CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, FinishedAt: r.FinishedAt}
	json.Unmarshal(r.Formats, &v.Formats)
	json.Unmarshal(r.Options, &v.Options)
	if r.Status != flow.ReleaseDone || len(r.Manifest) == 0 {
		v.MediaLinksExpireAt = mediaLinksExpiry(r, v.Options, nil)
		return v
	}
	var m exports.Manifest
	if json.Unmarshal(r.Manifest, &m) == nil {
		v.MediaLinksExpireAt = mediaLinksExpiry(r, v.Options, &m)
		sum := &Summary{Records: m.Records.Total, BySplit: m.Records.BySplit, ByProvenance: m.Records.ByProvenance,
			ByLanguage: m.Records.ByLanguage, Tally: m.Records, Files: len(m.Files) + 1}
		for _, f := range m.Files {
			sum.Bytes += f.Bytes
		}
		v.Summary = sum
	}
	if withManifest {
		v.Manifest = json.RawMessage(r.Manifest)
	}
	return v
}

// Get returns one release of a project, with its manifest once done.
func (s *Service) Get(ctx context.Context, projectID, id string) (*Release, error) {
	r, err := s.store.Release(ctx, projectID, id)
	if err != nil {
		return nil, store.Missing(err, "release")
	}
	v := view(r, true)
	return &v, nil
}

// List returns a project's releases, newest first (at most 200).
func (s *Service) List(ctx context.Context, projectID string) ([]Release, error) {
	rs, err := s.store.Releases(ctx, projectID, 200)
	if err != nil {
		return nil, err
	}
	out := make([]Release, len(rs))
	for i := range rs {
		out[i] = view(&rs[i], false)
	}
	return out, nil
}

// Start checks a release request and queues its job: the release row and the job are written
// in one transaction. Every problem the request can be found to have before the job runs (an
// unknown format or option, a split key missing on some items, nothing done) is a field error.
// A project with MaxUnfinished releases queued or running gets a flow.TooManyJobsError, one
// whose storage quota is used up media.ErrQuotaExceeded.
func (s *Service) Start(ctx context.Context, p *workflow.Project, actorID string, req Request) (*Release, error) {
	if s.jobs == nil {
		return nil, ErrNoJobs
	}
	name, spec, err := s.check(ctx, p, req)
	if err != nil {
		return nil, err
	}
	formats, _ := json.Marshal(spec.Formats)
	options, _ := json.Marshal(nonNilOptions(req.Options))
	r := &store.Release{ID: store.NewReleaseID(), ProjectID: p.ID, Name: name, SchemaVersion: p.Schema.Version,
		Formats: formats, Options: options, Status: flow.ReleaseQueued, CreatedBy: actorID}
	err = s.store.WithTx(ctx, func(tx *store.Store) error {
		if err := admit(ctx, tx, p.ID); err != nil {
			return err
		}
		if err := tx.CreateRelease(ctx, r); err != nil {
			return err
		}
		if err := tx.Audit(ctx, p.ID, actorID, "release.create", "release:"+r.ID, nil,
			map[string]any{"name": name, "formats": spec.Formats, "options": req.Options}); err != nil {
			return err
		}
		return s.jobs.EnqueueRelease(ctx, tx, r.ID)
	})
	if err != nil {
		return nil, err
	}
	v := view(r, false)
	return &v, nil
}

// admit refuses a new release to a project that has MaxUnfinished queued or running, or whose
// storage quota is used up. The project row is locked, so that requests side by side cannot
// each find room for one more.
func admit(ctx context.Context, tx *store.Store, projectID string) error {
	p, err := tx.ProjectForUpdate(ctx, projectID)
	if err != nil {
		return err
	}
	n, err := tx.UnfinishedReleases(ctx, projectID)
	if err != nil {
		return err
	}
	if n >= MaxUnfinished {
		return &flow.TooManyJobsError{Kind: "releases", Limit: MaxUnfinished}
	}
	if p.StorageQuota == nil {
		return nil
	}
	used, err := tx.StorageUsed(ctx, projectID)
	if err != nil {
		return err
	}
	if used.Total() >= *p.StorageQuota {
		return quota.ErrQuotaExceeded
	}
	return nil
}

func nonNilOptions(o map[string]any) map[string]any {
	if o == nil {
		return map[string]any{}
	}
	return o
}
