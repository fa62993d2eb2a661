package webhooks_test

import (
	"net/netip"
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/webhooks"
)

// TestWebhookPrivateAddresses: each refused range, its edges, and public neighbours.
func TestWebhookPrivateAddresses(t *testing.T) {
	for a, private := range map[string]bool{
		"127.0.0.1": true, "127.255.255.254": true, "::1": true, "::ffff:127.0.0.1": true,
		"10.0.0.1": true, "172.16.0.1": true, "172.31.255.255": true, "192.168.1.1": true,
		"169.254.169.254": true, "fe80::1": true, "fd00::1": true, "fc00::1": true,
		"0.0.0.0": true, "::": true, "0.1.2.3": true, "224.0.0.1": true, "ff02::1": true,
		"100.64.0.1": true, "100.127.255.255": true, "255.255.255.255": true,
		"8.8.8.8": false, "172.32.0.1": false, "100.128.0.1": false, "100.63.255.255": false,
		"2606:4700:4700::1111": false, "193.168.1.1": false, "::ffff:8.8.8.8": false,
	} {
		if got := webhooks.Private(netip.MustParseAddr(a)); got != private {
			t.Errorf("Private(%s) = %v, want %v", a, got, private)
		}
	}
}
