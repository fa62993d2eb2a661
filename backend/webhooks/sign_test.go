package webhooks_test

import (
	"strings"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/webhooks"
)

// TestSignSpecVector: the signature of the Standard Webhooks specification's published example.
func TestWebhookSignatureSpecVector(t *testing.T) {
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	body := []byte(`{"test": 2432232314}`)
	got, err := webhooks.Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body)
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
	if !webhooks.Verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body, "v1,bm9wZQ== "+got) {
		t.Fatal("the signature among several does not verify")
	}
	if webhooks.Verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265331, body, got) {
		t.Fatal("a signature verifies for another timestamp")
	}
}

func TestWebhookNewSecret(t *testing.T) {
	a, b := webhooks.NewSecret(), webhooks.NewSecret()
	if !strings.HasPrefix(a, "whsec_") || len(a) != len("whsec_")+44 || a == b {
		t.Fatalf("secrets %q %q", a, b)
	}
}
