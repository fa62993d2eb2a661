package api_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/store"
)

func archiveImport(t *testing.T, c *client, pid string, files map[string][]byte, items string) (int, []byte) {
	return archiveImportTo(t, c, "/api/v1/projects/"+pid+"/items", files, items)
}

// archiveImportTo posts a media zip of the files and the items to the import path.
func archiveImportTo(t *testing.T, c *client, path string, files map[string][]byte, items string) (int, []byte) {
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	for name, data := range files {
		w, _ := zw.Create(name)
		w.Write(data)
	}
	zw.Close()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mp, _ := mw.CreateFormFile("media", "media.zip")
	mp.Write(zbuf.Bytes())
	ip, _ := mw.CreateFormFile("items", "items.ndjson")
	ip.Write([]byte(items))
	mw.Close()
	return c.do("POST", path, body.Bytes(), "Content-Type", mw.FormDataContentType())
}

// TestImportWithMediaArchive: items reference files of a zip uploaded with the import; each
// file becomes one asset, a re-import changes nothing.
func TestImportWithMediaArchive(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		var p struct{ ID string }
		e.admin.must("POST", "/api/v1/projects", map[string]any{"name": "zip", "template": "d3omni-t2i"}, 201, &p)
		files := map[string][]byte{"img/a.png": pngBytes, "img/unused.png": []byte("x")}
		items := `{"external_id":"z-1","inputs":{"prompt":"p","image":"img/a.png","generator":"g"}}
{"external_id":"z-2","inputs":{"prompt":"p","image":{"url":"./img/a.png"},"generator":"g"}}
{"external_id":"z-3","inputs":{"prompt":"p","image":"https://example.org/elsewhere.png","generator":"g"}}
`
		status, body := archiveImport(t, e.admin, p.ID, files, items)
		var rep struct{ Imported, Unchanged int }
		if status != 200 || json.Unmarshal(body, &rep) != nil || rep.Imported != 3 {
			t.Fatalf("archive import: %d %s", status, body)
		}
		var page struct {
			Items []struct {
				ExternalID string                     `json:"external_id"`
				Inputs     map[string]json.RawMessage `json:"inputs"`
			}
		}
		e.admin.must("GET", "/api/v1/projects/"+p.ID+"/items", nil, 200, &page)
		ids := map[string]bool{}
		for _, it := range page.Items {
			var ref struct{ Asset, URL string }
			json.Unmarshal(it.Inputs["image"], &ref)
			if it.ExternalID == "z-3" {
				if ref.Asset != "" {
					t.Fatalf("a path outside the archive became an asset: %s", it.Inputs["image"])
				}
				continue
			}
			if ref.Asset == "" {
				t.Fatalf("%s: not an asset: %s", it.ExternalID, it.Inputs["image"])
			}
			ids[ref.Asset] = true
		}
		if len(ids) != 1 || countAssets(t, e) != 1 {
			t.Fatalf("one file, %d asset ids, %d assets stored", len(ids), countAssets(t, e))
		}
		status, body = archiveImport(t, e.admin, p.ID, files, items)
		if status != 200 || json.Unmarshal(body, &rep) != nil || rep.Unchanged != 3 || countAssets(t, e) != 1 {
			t.Fatalf("re-import: %d %s (%d assets)", status, body, countAssets(t, e))
		}
		if st, body := archiveImport(t, e.admin, p.ID, nil, ""); st != 200 {
			t.Fatalf("empty archive import: %d %s", st, body)
		}
	})
}

// TestZipBomb: an archive whose entries unpack far beyond their packed size, or whose files
// unpack to more than the upload limit in all, is refused before anything is stored.
func TestZipBomb(t *testing.T) {
	e := newEnv(t, openSQLite, func(o *options) { o.maxUpload = 4 << 20 })
	pid := robojudgeProject(t, e.admin, nil)
	items := robojudgeLine("zb-1", "g")
	status, body := archiveImport(t, e.admin, pid, map[string][]byte{"zeros.bin": make([]byte, 3<<20)}, items)
	if status != 422 || !strings.Contains(string(body), `"compression_ratio"`) {
		t.Fatalf("a thousandfold entry: %d %s", status, body)
	}
	many := map[string][]byte{}
	for i := range 6 {
		many[fmt.Sprintf("part-%d.bin", i)] = make([]byte, 900<<10)
	}
	status, body = archiveImport(t, e.admin, pid, many, items)
	if status != 413 || errorCode(t, body) != "payload_too_large" {
		t.Fatalf("entries over the limit in all: %d %s", status, body)
	}
	if n := countAssets(t, e); n != 0 {
		t.Fatalf("%d assets stored from refused archives", n)
	}
}

// TestStorageQuota: an administrator sets a project's quota; uploads past it are refused and
// leads see the usage; leads cannot change the quota.
func TestStorageQuota(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		e := newEnv(t, open)
		lead := e.newUser("lead@example.org", false)
		pid := lead.createProject("quota")
		if st, _ := lead.do("PUT", "/api/v1/projects/"+pid+"/storage", map[string]any{"quota_bytes": 1 << 30}); st != 403 {
			t.Fatalf("a lead set the quota: %d", st)
		}
		e.admin.must("PUT", "/api/v1/projects/"+pid+"/storage", map[string]any{"quota_bytes": 1000}, 200, nil)
		uploadAsset(t, lead, pid, "a.bin", bytes.Repeat([]byte{1}, 600))
		ct, body := multipartBody(t, "file", "b.bin", bytes.Repeat([]byte{2}, 600))
		if st, out := lead.do("POST", "/api/v1/projects/"+pid+"/assets", body, "Content-Type", ct); st != 413 || errorCode(t, out) != "quota_exceeded" {
			t.Fatalf("an upload over the quota: %d %s", st, out)
		}
		var s struct {
			Used  int64  `json:"used_bytes"`
			Quota *int64 `json:"quota_bytes"`
		}
		lead.must("GET", "/api/v1/projects/"+pid+"/storage", nil, 200, &s)
		if s.Used != 600 || s.Quota == nil || *s.Quota != 1000 {
			t.Fatalf("storage %+v", s)
		}
	})
}
