package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/arbiter-annotation/arbiter/backend/store/hooks"
)

// ErrBusy is a delivery that waits because its webhook already has PerWebhook deliveries in
// flight in this process; the job queue tries it again shortly, without counting an attempt.
var ErrBusy = errors.New("this webhook has as many deliveries in flight as it may")

type httpClient struct{ *http.Client }

// newHTTPClient is the client deliveries are made with: every connection dialled through the
// service's address check, no redirects followed (a 3xx is a failed attempt), no proxy.
func newHTTPClient(s *Service) *httpClient {
	tr := &http.Transport{
		DialContext:           s.dial,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: AttemptTimeout,
		MaxIdleConnsPerHost:   PerWebhook,
		IdleConnTimeout:       90 * time.Second,
	}
	return &httpClient{&http.Client{Transport: tr, Timeout: AttemptTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// RetryAt is when the attempt after the given failed one (1 for the first) runs.
func (s *Service) RetryAt(attempt int) time.Time {
	d := s.backoff
	for i := 1; i < attempt && d < 24*time.Hour; i++ {
		d *= 4
	}
	return time.Now().Add(d)
}

// maxErrorText bounds the error kept in the delivery log.
const maxErrorText = 500

// Deliver makes one attempt at a delivery: attempt is the queue's attempt number, last whether
// no attempt follows. It records the attempt in the delivery's row and returns an error when
// the receiver did not answer 2xx, so that the queue retries it. A delivery already made, or
// whose webhook is gone or disabled, ends without an attempt.
func (s *Service) Deliver(ctx context.Context, id string, last bool) error {
	d := db(s.store)
	v, err := d.Delivery(ctx, id)
	if errors.Is(err, hooks.ErrNotFound) {
		return nil // note: its webhook was deleted with its log
	}
	if err != nil || v.Status != hooks.StatusPending {
		return err
	}
	w, err := d.Webhook(ctx, "", v.WebhookID)
	if errors.Is(err, hooks.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !w.Enabled {
		return d.EndDelivery(ctx, id, "the webhook was disabled before this delivery was made")
	}
	if !s.take(w.ID) {
		return ErrBusy
	}
	defer s.done(w.ID)
	code, sendErr := s.send(ctx, w, v)
	a := hooks.Attempt{Status: hooks.StatusDelivered}
	if code != 0 {
		a.ResponseStatus = &code
	}
	if sendErr != nil {
		msg := sendErr.Error()
		if len(msg) > maxErrorText {
			msg = msg[:maxErrorText]
		}
		a.Status, a.Error = hooks.StatusPending, &msg
		if last {
			a.Status = hooks.StatusFailed
		}
	}
	if err := d.RecordAttempt(context.WithoutCancel(ctx), id, a); err != nil {
		return errors.Join(sendErr, err)
	}
	return sendErr
}

// send posts the delivery, signed now, and returns the answer's status.
func (s *Service) send(ctx context.Context, w *hooks.Webhook, v *hooks.Delivery) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, AttemptTimeout)
	defer cancel()
	ts := time.Now().Unix()
	body := []byte(v.Payload)
	sig, err := Sign(w.Secret, v.ID, ts, body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("user-agent", "Arbiter-Webhooks")
	req.Header.Set("webhook-id", v.ID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sig)
	res, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res.StatusCode, fmt.Errorf("the receiver answered %s", res.Status)
	}
	return res.StatusCode, nil
}

// take counts one more delivery in flight to a webhook; false when it has PerWebhook already.
func (s *Service) take(webhookID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy[webhookID] >= PerWebhook {
		return false
	}
	s.busy[webhookID]++
	return true
}

func (s *Service) done(webhookID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy[webhookID]--; s.busy[webhookID] <= 0 {
		delete(s.busy, webhookID)
	}
}
