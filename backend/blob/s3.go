package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3 keeps blobs in one bucket of an S3-compatible store (MinIO, AWS S3).
type S3 struct {
	client *minio.Client
	signer *minio.Client // presigns URLs for the endpoint browsers reach
	bucket string
}

// NewS3 connects to the bucket named by u
// (s3://BUCKET?endpoint=HOST:PORT&secure=false&region=R&public_endpoint=HOST:PORT&public_secure=true)
// and creates the bucket if it does not exist. public_endpoint is the address browsers use
// when it differs from the one the server uses (e.g. minio:9000 inside a compose network).
func NewS3(ctx context.Context, u *url.URL, accessKey, secretKey string) (*S3, error) {
	q := u.Query()
	endpoint := q.Get("endpoint")
	if endpoint == "" {
		endpoint = "s3.amazonaws.com"
	}
	secure := true
	if v := q.Get("secure"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("blob url: secure=%q: %w", v, err)
		}
		secure = b
	}
	client, err := minio.New(endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(accessKey, secretKey, ""),
		Secure: secure,
		Region: q.Get("region"),
	})
	if err != nil {
		return nil, fmt.Errorf("s3 client: %w", err)
	}
	s := &S3{client: client, signer: client, bucket: u.Host}
	if pub := q.Get("public_endpoint"); pub != "" {
		if s.signer, err = publicSigner(q, pub, secure, accessKey, secretKey); err != nil {
			return nil, err
		}
	}
	if err := s.ensureBucket(ctx, q.Get("region")); err != nil {
		return nil, err
	}
	return s, nil
}

// publicSigner is a client for the public endpoint. It never connects: with the region given,
// minio-go presigns offline.
func publicSigner(q url.Values, endpoint string, secure bool, accessKey, secretKey string) (*minio.Client, error) {
	if v := q.Get("public_secure"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("blob url: public_secure=%q: %w", v, err)
		}
		secure = b
	}
	region := q.Get("region")
	if region == "" {
		region = "us-east-1"
	}
	return minio.New(endpoint, &minio.Options{Creds: credentials.NewStaticV4(accessKey, secretKey, ""), Secure: secure, Region: region})
}

func (s *S3) ensureBucket(ctx context.Context, region string) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("s3 bucket %q: %w", s.bucket, err)
	}
	if ok {
		return nil
	}
	err = s.client.MakeBucket(ctx, s.bucket, minio.MakeBucketOptions{Region: region})
	if err != nil {
		if resp := minio.ToErrorResponse(err); resp.Code == "BucketAlreadyOwnedByYou" {
			return nil
		}
		return fmt.Errorf("create s3 bucket %q: %w", s.bucket, err)
	}
	return nil
}

// streamPartSize is the part size of uploads of unknown size: the memory one such upload holds,
// and a ten-thousandth of the largest object it can write (about 156 GiB).
const streamPartSize = 16 << 20

// Put uploads r; with size -1 minio-go streams it in parts of streamPartSize.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if err := ValidKey(key); err != nil {
		return err
	}
	opts := minio.PutObjectOptions{ContentType: contentType}
	if size < 0 {
		// note: left to itself minio-go sizes parts for a 5 TiB object and buffers one part
		// (over 500 MiB) per upload
		opts.PartSize = streamPartSize
		r = brokenOff{r}
	}
	_, err := s.client.PutObject(ctx, s.bucket, key, r, size, opts)
	return unreachable(err)
}

// brokenOff passes a body on, but not its own io.ErrUnexpectedEOF as such: minio-go takes
// that error for the end of a short last part, and would store a body that broke off (a
// request whose client went away) as a whole, shorter blob.
type brokenOff struct{ r io.Reader }

func (b brokenOff) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.ErrUnexpectedEOF {
		err = fmt.Errorf("the body broke off: %w", err)
	}
	return n, err
}

// unreachable marks an error of a store that did not answer as ErrUnavailable.
func unreachable(err error) error {
	var netErr net.Error
	if err == nil || errors.Is(err, context.Canceled) || !errors.As(err, &netErr) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

// Get opens the object.
func (s *S3) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := ValidKey(key); err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, unreachable(err)
	}
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		if minio.ToErrorResponse(err).Code == "NoSuchKey" {
			return nil, ErrNotFound
		}
		return nil, unreachable(err)
	}
	return obj, nil
}

// Delete removes the object.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := ValidKey(key); err != nil {
		return err
	}
	return unreachable(s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}))
}

// DeleteFolder lists the objects under folder + "/" and removes them in batches, then aborts
// the uploads still open there (a writer that died part way leaves its parts behind).
func (s *S3) DeleteFolder(ctx context.Context, folder string) error {
	if err := ValidKey(folder); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // note: a failed removal stops the listing
	objects := s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: folder + "/", Recursive: true})
	var listErr error
	keys := make(chan minio.ObjectInfo)
	go func() {
		defer close(keys)
		for o := range objects {
			if o.Err != nil {
				listErr = o.Err
				return
			}
			select {
			case keys <- o:
			case <-ctx.Done():
				return
			}
		}
	}()
	var err error
	for e := range s.client.RemoveObjects(ctx, s.bucket, keys, minio.RemoveObjectsOptions{}) {
		if e.Err != nil && err == nil {
			err = e.Err
			cancel()
		}
	}
	if err == nil {
		err = listErr
	}
	for u := range s.client.ListIncompleteUploads(ctx, s.bucket, folder+"/", true) {
		if err != nil {
			break
		}
		if err = u.Err; err == nil {
			err = s.client.RemoveIncompleteUpload(ctx, s.bucket, u.Key)
		}
	}
	return unreachable(err)
}

// SignedURL presigns a GET that answers with the given content type, or as a download when
// that type is not safe to show inline.
func (s *S3) SignedURL(ctx context.Context, key string, ttl time.Duration, contentType string) (string, error) {
	if err := ValidKey(key); err != nil {
		return "", err
	}
	// note: S3 sends no Content-Security-Policy, so what a browser may render is decided by
	// the type and disposition the URL asks for
	ct, disposition := Served(contentType)
	params := url.Values{"response-content-type": {ct}, "response-content-disposition": {disposition}}
	u, err := s.signer.PresignedGetObject(ctx, s.bucket, key, ttl, params)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// Ping checks that the bucket answers.
func (s *S3) Ping(ctx context.Context) error {
	_, err := s.client.BucketExists(ctx, s.bucket)
	return err
}
