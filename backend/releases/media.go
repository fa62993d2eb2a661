package releases

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/exports"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// mediaTTL is how long the signed URLs of a release that references its media stay valid,
// from the moment the release was asked for: the longest an S3 presigned URL may live.
const mediaTTL = 7 * 24 * time.Hour

// CodeNoPublicURL refuses a release by reference whose links to uploaded media would have no
// host.
const CodeNoPublicURL = "no_public_url"

// defaultMedia makes copy the media mode of a release that does not choose one, so that a
// release ships its files and lasts (exports' own default, reference, writes references as
// given, and a reference to an upload is a signed link that expires).
func defaultMedia(spec *exports.Spec, options map[string]any) {
	if _, asked := options["media"]; !asked {
		spec.Media = exports.MediaCopy
	}
}

// checkMedia refuses a release by reference of a project with uploaded media when the links
// would be paths without a host: the local blob store signs paths of this server, and only
// the server's public URL (--public-url) makes them links that work outside it.
func (s *Service) checkMedia(ctx context.Context, projectID string, spec *exports.Spec) error {
	if spec.Media != exports.MediaReference || s.publicURL != "" {
		return nil
	}
	if u, err := s.blobs.SignedURL(ctx, "releases/probe", time.Minute, ""); err != nil || !strings.HasPrefix(u, "/") {
		return nil // note: a store that cannot sign now fails the release's job, not its request
	}
	has, err := s.store.HasAssets(ctx, projectID)
	if err != nil || !has {
		return err
	}
	return tasks.Field("options.media", CodeNoPublicURL, "links to the project's uploaded media would have no host: "+
		"this server has no public URL (--public-url, ARBITER_PUBLIC_URL); copy the media into the release instead, or set the public URL")
}

// linksExpireAt is when the signed links to uploaded media of a release by reference stop
// working: mediaTTL after the release was asked for, the same instant for every link.
func linksExpireAt(r *store.Release) time.Time {
	return r.CreatedAt.Add(mediaTTL).UTC().Truncate(time.Second)
}

// mediaLinksExpiry is linksExpireAt for a release by reference, nil for one that copies its
// media. A done release is read by its manifest, which records the mode it was made with.
func mediaLinksExpiry(r *store.Release, options map[string]any, m *exports.Manifest) *time.Time {
	mode, asked := options["media"]
	if !asked {
		mode = exports.MediaCopy
	}
	if m != nil {
		mode = m.Options["media"]
	}
	if mode != exports.MediaReference {
		return nil
	}
	at := linksExpireAt(r)
	return &at
}

// releaseMedia turns the asset references of released inputs into what the release carries: a signed
// URL (media "reference") or a copy of the file inside the release, media/<asset id><ext>
// (media "copy"). Paths and URLs given at import stay as they were.
type releaseMedia struct {
	s       *Service
	copy    bool
	expires time.Time // when the signed URLs of a release by reference stop working
	sink    *blobSink
	copied  map[string]string // asset id → release path
	files   []exports.FileEntry
}

func (s *Service) newMedia(r *store.Release, spec *exports.Spec, sink *blobSink) *releaseMedia {
	return &releaseMedia{s: s, copy: spec.Media == exports.MediaCopy, expires: linksExpireAt(r), sink: sink, copied: map[string]string{}}
}

// errLinksExpired fails a release by reference that started after its links would expire.
var errLinksExpired = errors.New("this release waited longer than its media links may live (7 days); start a new release")

// rewrite replaces the asset references of an item's inputs in place.
func (m *releaseMedia) rewrite(ctx context.Context, schema *tasks.Schema, inputs map[string]json.RawMessage, assets map[string]*store.Asset) error {
	return walkMedia(schema, inputs, func(id string) (string, error) {
		a := assets[id]
		if a == nil {
			return "", fmt.Errorf("asset %s is not a file of this project", id)
		}
		if m.copy {
			return m.copyAsset(ctx, a)
		}
		ttl := m.expires.Sub(m.s.now())
		if ttl < time.Minute {
			return "", errLinksExpired
		}
		url, err := m.s.blobs.SignedURL(ctx, a.BlobKey, ttl, a.ContentType)
		if strings.HasPrefix(url, "/") {
			url = m.s.publicURL + url
		}
		return url, err
	})
}

// safeExt is a file extension kept on copied media.
var safeExt = regexp.MustCompile(`^\.[a-z0-9]{1,8}$`)

// copyAsset copies an asset into the release once and returns its release path.
func (m *releaseMedia) copyAsset(ctx context.Context, a *store.Asset) (string, error) {
	if p, ok := m.copied[a.ID]; ok {
		return p, nil
	}
	ext := strings.ToLower(path.Ext(a.Filename))
	if !safeExt.MatchString(ext) {
		ext = ""
	}
	p := "media/" + a.ID + ext
	r, err := m.s.blobs.Get(ctx, a.BlobKey)
	if err != nil {
		return "", fmt.Errorf("read asset %s from the blob store: %w", a.ID, err)
	}
	defer r.Close()
	f, err := m.sink.create(p, a.ContentType)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return "", fmt.Errorf("copy asset %s: %w", a.ID, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("copy asset %s: %w", a.ID, err)
	}
	w, _ := m.sink.stored(p)
	if a.SHA256 != "" && w.SHA256 != a.SHA256 {
		return "", fmt.Errorf("asset %s no longer has the bytes it was uploaded with", a.ID)
	}
	m.copied[a.ID] = p
	m.files = append(m.files, exports.FileEntry{Path: p, Format: "media", Bytes: w.Bytes, SHA256: w.SHA256})
	return p, nil
}

// assetMarker is in every input value that references an asset.
var assetMarker = []byte(`"asset"`)

// walkMedia calls fn with every asset id an item's media inputs reference (media inputs, image
// lists, media candidates) and puts the string fn returns in the reference's place; an empty
// string leaves the reference as it is.
func walkMedia(schema *tasks.Schema, inputs map[string]json.RawMessage, fn func(assetID string) (string, error)) error {
	for _, in := range schema.Inputs {
		raw, ok := inputs[in.Name]
		if !ok || !bytes.Contains(raw, assetMarker) {
			continue
		}
		out, err := mediaValue(in.Type, raw, fn)
		if err != nil {
			return fmt.Errorf("inputs.%s: %w", in.Name, err)
		}
		inputs[in.Name] = out
	}
	return nil
}

// mediaValue rewrites one input value of the given type.
func mediaValue(t tasks.InputType, raw json.RawMessage, fn func(string) (string, error)) (json.RawMessage, error) {
	switch t {
	case tasks.InputImage, tasks.InputVideo, tasks.InputAudio, tasks.InputModel3D:
		var ref tasks.MediaRef
		if json.Unmarshal(raw, &ref) != nil || ref.Asset == "" {
			return raw, nil
		}
		v, err := fn(ref.Asset)
		if err != nil || v == "" {
			return raw, err
		}
		return json.Marshal(v)
	case tasks.InputImageList:
		return rewriteList(raw, func(r json.RawMessage) (json.RawMessage, error) { return mediaValue(tasks.InputImage, r, fn) })
	case tasks.InputCandidates:
		var cs []tasks.Candidate
		if json.Unmarshal(raw, &cs) != nil {
			return raw, nil
		}
		for i := range cs {
			v, err := mediaValue(cs[i].Type, cs[i].Value, fn)
			if err != nil {
				return nil, err
			}
			cs[i].Value = v
		}
		return json.Marshal(cs)
	}
	return raw, nil
}

// rewriteList rewrites each element of a JSON array.
func rewriteList(raw json.RawMessage, f func(json.RawMessage) (json.RawMessage, error)) (json.RawMessage, error) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return raw, nil
	}
	for i, e := range list {
		v, err := f(e)
		if err != nil {
			return nil, err
		}
		list[i] = v
	}
	return json.Marshal(list)
}
