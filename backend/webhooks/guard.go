package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"github.com/arbiter-annotation/arbiter/tasks"
)

// ErrPrivateAddress is a target that is, or resolves to, an address of this host or of a
// private network: loopback, link-local, private (RFC 1918, RFC 4193), unspecified, multicast
// or shared (CGNAT, RFC 6598). Such targets are refused unless the operator allows them
// (--webhook-allow-private), so that a project lead cannot make the server call into its own
// network.
var ErrPrivateAddress = errors.New("the address is on this host or a private network")

var (
	cgnat    = netip.MustParsePrefix("100.64.0.0/10")
	thisNet  = netip.MustParsePrefix("0.0.0.0/8")
	reserved = netip.MustParsePrefix("240.0.0.0/4") // and the broadcast address
)

// Private reports whether an address may not be a webhook's target.
func Private(a netip.Addr) bool {
	a = a.Unmap()
	return !a.IsValid() || a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() ||
		a.IsMulticast() || a.IsPrivate() || a.IsUnspecified() || cgnat.Contains(a) || thisNet.Contains(a) || reserved.Contains(a)
}

// Lookup resolves a host name to its addresses (net.Resolver.LookupNetIP; tests replace it).
type Lookup func(ctx context.Context, host string) ([]netip.Addr, error)

func defaultLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// checkURL validates a target URL: absolute http or https with a host, and, unless private
// targets are allowed, not resolving to a private address.
func (s *Service) checkURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" || u.User != nil {
		return tasks.Field("url", "invalid_url", "the url must be an absolute http:// or https:// URL without credentials")
	}
	if s.allowPrivate {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := s.resolve(ctx, u.Hostname())
	if err != nil {
		return tasks.Field("url", "unresolvable", "the url's host %s does not resolve: %v", u.Hostname(), err)
	}
	for _, a := range addrs {
		if Private(a) {
			return tasks.Field("url", "private_address", "the url's host %s is %s, an address on this host or a private network; the server's operator may allow such targets (--webhook-allow-private)", u.Hostname(), a)
		}
	}
	return nil
}

// resolve returns a host's addresses: the host itself when it is an address.
func (s *Service) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	addrs, err := s.lookup(ctx, host)
	if err == nil && len(addrs) == 0 {
		err = errors.New("no addresses")
	}
	return addrs, err
}

// control refuses, at the moment of connecting, an address that may not be dialled: the
// check that holds against a name that resolved to a public address when the webhook was
// made and resolves to a private one now (DNS rebinding).
func (s *Service) control(_, address string, _ syscall.RawConn) error {
	if s.allowPrivate {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("dial %s: %w", address, err)
	}
	if Private(ap.Addr()) {
		return fmt.Errorf("dial %s: %w", ap.Addr(), ErrPrivateAddress)
	}
	return nil
}

// dial resolves the host with the service's resolver and connects to its addresses in turn,
// each connection checked by control.
func (s *Service) dial(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	addrs, err := s.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: 10 * time.Second, Control: s.control}
	var errs []error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}
