//go:build faults

package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/arbiter-annotation/arbiter/backend/jobs"
	"github.com/arbiter-annotation/arbiter/backend/testenv"
)

// TestFaultReleaseReplicaKilled: the replica writing a release is killed with SIGKILL once the
// release has files in the object store. Another replica, started after, finds the job's lease
// unrenewed and rescues it within the lease's bound (jobs.DefaultLease): the release ends
// failed, with no object and no unfinished upload left under its folder and nothing counted
// toward the project's storage.
func TestFaultReleaseReplicaKilled(t *testing.T) {
	bin := minioBinary(t)
	m := &minioProcess{bin: bin, dir: t.TempDir(), addr: freeAddr(t)}
	m.start(t)
	t.Cleanup(m.stop)
	dsn := testenv.PostgresURL(t)
	blobURL := "s3://fault?endpoint=" + m.addr + "&secure=false"
	creds := []string{"ARBITER_S3_ACCESS_KEY=" + faultS3User, "ARBITER_S3_SECRET_KEY=" + faultS3Password}
	a := startReplica(t, dsn, blobURL, creds...)
	ctx := context.Background()
	lead := &loadAPI{http: &http.Client{Timeout: 2 * time.Minute}, base: a.url}
	var err error
	if lead.token, err = loginAs(ctx, lead, faultAdminEmail, faultAdminPassword); err != nil {
		t.Fatal(err)
	}
	var p struct{ ID string }
	if _, err := lead.do(ctx, "POST", "/api/v1/projects", map[string]any{"name": "release under a kill", "template": "likert-rating"}, &p, nil, 201); err != nil {
		t.Fatal(err)
	}
	project := "/api/v1/projects/" + p.ID
	// note: media copied into the release are objects of their own, stored one by one while the
	// records stream, so a release that dies part way leaves whole objects behind
	const assets, items = 100, 5000
	ids := make([]string, assets)
	for i := range ids {
		ids[i] = uploadRandom(t, lead, project, 8<<10)
	}
	pr, pw := io.Pipe()
	go func() {
		for i := range items {
			fmt.Fprintf(pw, `{"external_id":"r-%05d","inputs":{"prompt":"prompt %d","output":[{"id":"o1","type":"image","value":{"asset":%q}}]},"ground_truth":{"answers":{"quality":%d},"provenance":"rule"}}`+"\n",
				i, i, ids[i%assets], 1+i%5)
		}
		pw.Close()
	}()
	var rep struct{ Imported int }
	if _, err := lead.do(ctx, "POST", project+"/items", pr, &rep, nil, 200); err != nil || rep.Imported != items {
		t.Fatalf("import: %+v %v", rep, err)
	}
	var rel struct {
		ID       string
		Status   string
		Error    *string
		Progress struct{ Records, Total int64 }
	}
	if _, err := lead.do(ctx, "POST", project+"/releases", map[string]any{"name": "v1", "formats": []string{"jsonl", "csv", "hf"},
		"options": map[string]any{"media": "copy"}}, &rel, nil, 202); err != nil {
		t.Fatal(err)
	}
	s3, err := minio.New(m.addr, &minio.Options{Creds: credentials.NewStaticV4(faultS3User, faultS3Password, "")})
	if err != nil {
		t.Fatal(err)
	}
	folder := "releases/" + p.ID + "/" + rel.ID + "/"
	stored := func() (objects, uploads int) {
		for o := range s3.ListObjects(ctx, "fault", minio.ListObjectsOptions{Prefix: folder, Recursive: true}) {
			if o.Err == nil {
				objects++
			}
		}
		for u := range s3.ListIncompleteUploads(ctx, "fault", folder, true) {
			if u.Err == nil {
				uploads++
			}
		}
		return objects, uploads
	}
	var objects, uploads int
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the release never had files stored while it ran: %+v", rel)
		}
		lead.do(ctx, "GET", project+"/releases/"+rel.ID, nil, &rel, nil, 200)
		if rel.Status == "done" || rel.Status == "failed" {
			t.Fatalf("the release ended before the kill: %+v (add items)", rel)
		}
		if objects, uploads = stored(); rel.Status == "running" && objects >= 20 {
			break
		}
	}
	a.kill()
	killed := time.Now()
	t.Logf("killed the replica at %d of %d records, with %d objects and %d unfinished uploads stored", rel.Progress.Records, rel.Progress.Total, objects, uploads)
	b := startReplica(t, dsn, blobURL, creds...)
	lead.base = b.url
	bound := jobs.DefaultLease.Bound + jobs.DefaultLease.Reap
	for deadline := killed.Add(bound + 30*time.Second); rel.Status != "failed"; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) || rel.Status == "done" {
			t.Fatalf("%s after the kill the release is %+v", time.Since(killed).Round(time.Second), rel)
		}
		lead.do(ctx, "GET", project+"/releases/"+rel.ID, nil, &rel, nil, 200)
	}
	took := time.Since(killed)
	objects, uploads = stored()
	var st struct {
		ReleaseBytes int64 `json:"release_bytes"`
	}
	if _, err := lead.do(ctx, "GET", project+"/storage", nil, &st, nil, 200); err != nil {
		t.Fatal(err)
	}
	t.Logf("the release failed %s after the kill (bound %s: the lease's %s and a reap): %q; left under its folder: %d objects, %d unfinished uploads; release bytes counted %d",
		took.Round(time.Millisecond), bound, jobs.DefaultLease.Bound, *rel.Error, objects, uploads, st.ReleaseBytes)
	if took > bound+10*time.Second || objects != 0 || uploads != 0 || st.ReleaseBytes != 0 {
		t.Fatalf("after the rescue: %s, %d objects, %d uploads, %d bytes counted", took, objects, uploads, st.ReleaseBytes)
	}
}

// uploadRandom uploads n random bytes as an asset and returns its id.
func uploadRandom(t *testing.T, c *loadAPI, project string, n int) string {
	t.Helper()
	var data bytes.Buffer // note: an image, as the input it fills requires, padded with noise
	if err := png.Encode(&data, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, max(0, n-data.Len()))
	rand.Read(noise)
	data.Write(noise)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "blob.png")
	fw.Write(data.Bytes())
	mw.Close()
	var a struct{ ID string }
	st, err := c.do(context.Background(), "POST", project+"/assets", &body, &a, map[string]string{"Content-Type": mw.FormDataContentType()}, 201)
	if err != nil || a.ID == "" {
		t.Fatalf("upload: %d %v", st, err)
	}
	return a.ID
}
