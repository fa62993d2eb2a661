package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arbiter-annotation/arbiter/exports"
)

// runExport starts a release of a project on a server, shows its progress, then downloads
// every file into a directory and verifies each against the manifest.
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arbiter export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "http://127.0.0.1:8080", "server base URL")
	project := fs.String("project", "", "project id")
	name := fs.String("name", "", "release name (default export-YYYYMMDD-HHMMSS)")
	out := fs.String("out", "", "directory to download the release into (created if missing)")
	token := fs.String("token", os.Getenv("ARBITER_TOKEN"), "personal access token (ARBITER_TOKEN)")
	var formats, options listFlag
	fs.Var(&formats, "format", "format to write: "+strings.Join(exports.FormatNames(), ", ")+" (repeat, or comma-separated)")
	fs.Var(&options, "option", "release option key=value, e.g. raw=true, split_ratios=train=0.8,test=0.2, filter.task=t2i (repeat)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *project == "" || *out == "" || *token == "" || len(formats) == 0 {
		fs.Usage()
		return errors.New("--project, --format, --out and a token (--token or ARBITER_TOKEN) are required")
	}
	opts, err := parseOptions(options)
	if err != nil {
		return err
	}
	if *name == "" {
		*name = "export-" + time.Now().UTC().Format("20060102-150405")
	}
	c := &apiClient{base: strings.TrimRight(*server, "/") + "/api/v1/projects/" + url.PathEscape(*project), token: *token}
	rel, err := c.startRelease(ctx, *name, splitFormats(formats), opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "release %s queued\n", rel.ID)
	warnLinks(stderr, rel)
	if rel, err = c.waitRelease(ctx, rel.ID, stderr); err != nil {
		return err
	}
	n, size, err := c.download(ctx, rel, *out, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "release %s (%s): %d records, %d files (%s) downloaded to %s and verified against the manifest\n",
		rel.ID, rel.Name, rel.Manifest.Records.Total, n, humanBytes(size), *out)
	warnLinks(stderr, rel)
	return nil
}

// warnLinks says when the links to uploaded media of a release by reference stop working.
func warnLinks(w io.Writer, rel *releaseBody) {
	if rel.MediaLinksExpireAt == nil {
		return
	}
	at := *rel.MediaLinksExpireAt
	fmt.Fprintf(w, "warning: the links to uploaded media in this release expire on %s (in %.1f days); after that its files point to nothing. "+
		"To ship the media with the files, release with --option media=copy (the default).\n",
		at.UTC().Format(time.RFC3339), time.Until(at).Hours()/24)
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, " ") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// splitFormats reads --format jsonl --format hf and --format jsonl,hf alike.
func splitFormats(l listFlag) []string {
	var out []string
	for _, v := range l {
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// parseOptions reads key=value options; the server checks keys and values.
func parseOptions(l listFlag) (map[string]any, error) {
	out := map[string]any{}
	for _, kv := range l {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--option %q: expected key=value", kv)
		}
		out[strings.TrimSpace(k)] = v
	}
	return out, nil
}

// releaseBody is what the CLI reads of a release.
type releaseBody struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Status string  `json:"status"`
	Error  *string `json:"error"`
	// MediaLinksExpireAt is set for a release by reference: when its links to media expire.
	MediaLinksExpireAt *time.Time `json:"media_links_expire_at"`
	Progress           struct {
		Records int64 `json:"records"`
		Total   int64 `json:"total"`
	} `json:"progress"`
	Manifest *manifestBody `json:"manifest"`
}

// manifestBody is what the CLI checks of a manifest.
type manifestBody struct {
	Records struct {
		Total int64 `json:"total"`
	} `json:"records"`
	Files []manifestFile `json:"files"`
}

type manifestFile struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// apiClient calls one project of a server with a token.
type apiClient struct {
	base, token string
}

func (c *apiClient) startRelease(ctx context.Context, name string, formats []string, options map[string]any) (*releaseBody, error) {
	body, _ := json.Marshal(map[string]any{"name": name, "formats": formats, "options": options})
	var rel releaseBody
	return &rel, c.call(ctx, "POST", "/releases", body, http.StatusAccepted, &rel)
}

// waitRelease polls the release, drawing its progress, until it is done; a failed release is
// an error with the server's reason.
func (c *apiClient) waitRelease(ctx context.Context, id string, stderr io.Writer) (*releaseBody, error) {
	var rel releaseBody
	bar := &bar{w: stderr, unit: "records"}
	for {
		if err := c.call(ctx, "GET", "/releases/"+url.PathEscape(id), nil, http.StatusOK, &rel); err != nil {
			bar.end()
			return nil, err
		}
		bar.draw(rel.Progress.Records, rel.Progress.Total, rel.Status)
		switch rel.Status {
		case "done":
			bar.end()
			if rel.Manifest == nil {
				return nil, errors.New("the server sent a done release without its manifest")
			}
			return &rel, nil
		case "failed":
			bar.end()
			reason := "no reason given"
			if rel.Error != nil {
				reason = *rel.Error
			}
			return nil, fmt.Errorf("release %s failed: %s", id, reason)
		}
		select {
		case <-ctx.Done():
			bar.end()
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// call sends a JSON request and decodes the answer, which must have the given status.
func (c *apiClient) call(ctx context.Context, method, path string, body []byte, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(b))
	}
	return json.Unmarshal(b, out)
}

// bar draws a progress bar on one line of stderr; end finishes the line.
type bar struct {
	w     io.Writer
	unit  string
	drawn bool
}

func (b *bar) draw(done, total int64, status string) {
	frac := 0.0
	if total > 0 {
		frac = min(float64(done)/float64(total), 1)
	}
	if status == "done" {
		frac = 1
	}
	const width = 30
	filled := int(frac * width)
	fmt.Fprintf(b.w, "\r[%s%s] %5.1f%%  %d / %d %s  %-8s", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		frac*100, done, total, b.unit, status)
	b.drawn = true
}

func (b *bar) end() {
	if b.drawn {
		fmt.Fprintln(b.w)
		b.drawn = false
	}
}

// download fetches every file of a done release into dir, checking size and sha256 against
// the manifest, and manifest.json itself; it returns the number of files and their bytes.
func (c *apiClient) download(ctx context.Context, rel *releaseBody, dir string, stderr io.Writer) (int, int64, error) {
	files := append(rel.Manifest.Files, manifestFile{Path: "manifest.json", Bytes: -1})
	var total int64
	for _, f := range rel.Manifest.Files {
		total += f.Bytes
	}
	bar := &bar{w: stderr, unit: "bytes"}
	var got int64
	for i, f := range files {
		if !filepath.IsLocal(filepath.FromSlash(f.Path)) {
			bar.end()
			return 0, 0, fmt.Errorf("the manifest names %q, which is not a path inside the release", f.Path)
		}
		n, err := c.fetch(ctx, rel.ID, f, filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			bar.end()
			return 0, 0, err
		}
		got += n
		bar.draw(min(got, total), total, fmt.Sprintf("%d/%d", i+1, len(files)))
	}
	bar.end()
	if err := checkManifestFile(filepath.Join(dir, "manifest.json"), rel.Manifest); err != nil {
		return 0, 0, err
	}
	return len(files), got, nil
}

// downloadClient follows redirects to signed URLs without the bearer token: an object store
// refuses a request that carries both.
var downloadClient = &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("too many redirects")
	}
	if req.URL.Host != via[0].URL.Host {
		req.Header.Del("Authorization")
	}
	return nil
}}

// fetch downloads one file to path through a temporary file, renamed into place once its
// size and sha256 match the manifest (a negative size skips the check).
func (c *apiClient) fetch(ctx context.Context, releaseID string, f manifestFile, path string) (int64, error) {
	u := c.base + "/releases/" + url.PathEscape(releaseID) + "/files/" + (&url.URL{Path: f.Path}).EscapedPath()
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := downloadClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return 0, fmt.Errorf("download %s: %s: %s", f.Path, resp.Status, bytes.TrimSpace(b))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".download-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), resp.Body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("download %s: %w", f.Path, err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); f.Bytes >= 0 && (n != f.Bytes || sum != f.SHA256) {
		return 0, fmt.Errorf("%s: got %d bytes with sha256 %s, the manifest says %d bytes with sha256 %s", f.Path, n, sum, f.Bytes, f.SHA256)
	}
	return n, os.Rename(tmp.Name(), path)
}

// checkManifestFile checks that the downloaded manifest.json lists the files the server
// reported, with the same sizes and checksums.
func checkManifestFile(path string, want *manifestBody) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var got manifestBody
	if err := json.Unmarshal(b, &got); err != nil {
		return fmt.Errorf("manifest.json: %w", err)
	}
	if len(got.Files) != len(want.Files) || got.Records.Total != want.Records.Total {
		return errors.New("manifest.json differs from the release the server reported")
	}
	for i := range got.Files {
		if got.Files[i] != want.Files[i] {
			return fmt.Errorf("manifest.json lists %s differently from the release the server reported", got.Files[i].Path)
		}
	}
	return nil
}
