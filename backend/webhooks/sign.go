package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
)

// secretPrefix starts every secret, as Standard Webhooks writes them.
const secretPrefix = "whsec_"

// secretBytes is how many random bytes a secret holds (the specification asks for 24 to 64).
const secretBytes = 32

// NewSecret returns a new signing secret: whsec_ and the base64 of 32 random bytes.
func NewSecret() string {
	b := make([]byte, secretBytes)
	rand.Read(b)
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

// secretKey is the HMAC key of a secret: its base64 part, decoded.
func secretKey(secret string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil || len(k) == 0 {
		return nil, errors.New("webhook secret is not whsec_ and base64")
	}
	return k, nil
}

// Sign returns the webhook-signature header of one message: v1, and the base64 of the
// HMAC-SHA256, keyed by the secret, of id.timestamp.body (Standard Webhooks, symmetric).
func Sign(secret, id string, timestamp int64, body []byte) (string, error) {
	k, err := secretKey(secret)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, k)
	m.Write([]byte(id + "." + strconv.FormatInt(timestamp, 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)), nil
}

// Verify reports whether a webhook-signature header (space-separated signatures) holds one
// that signs the message with the secret. It does not judge the timestamp's age; receivers
// should also refuse timestamps far from their clock.
func Verify(secret, id string, timestamp int64, body []byte, header string) bool {
	want, err := Sign(secret, id, timestamp, body)
	if err != nil {
		return false
	}
	for _, sig := range strings.Fields(header) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}
