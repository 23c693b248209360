package executor

import (
	"cmp"
	"errors"
	"strings"
	"testing"
)

// TestCheckAddress covers each refused range, with and without its
// allowance, on the "ip:port" a dialer's Control hook receives.
func TestCheckAddress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr, kind     string
		loopback, priv bool // allowances
		refused        bool
	}{
		{addr: "93.184.215.14:443", kind: ""},
		{addr: "[2606:4700::6810:84e5]:443", kind: ""},
		{addr: "127.0.0.1:80", kind: "loopback", refused: true},
		{addr: "127.9.9.9:80", kind: "loopback", loopback: true},
		{addr: "[::1]:80", kind: "loopback", refused: true},
		{addr: "[::ffff:127.0.0.1]:80", kind: "loopback", refused: true},
		{addr: "0.0.0.0:80", kind: "unspecified", loopback: true, priv: true, refused: true},
		{addr: "10.1.2.3:80", kind: "private", refused: true},
		{addr: "172.16.0.1:80", kind: "private", loopback: true, refused: true},
		{addr: "192.168.1.1:80", kind: "private", priv: true},
		{addr: "100.64.0.1:80", kind: "private", refused: true},
		{addr: "[fd00::1]:80", kind: "private", refused: true},
		{addr: "169.254.169.254:80", kind: "link-local", refused: true},
		{addr: "[fe80::1]:80", kind: "link-local", priv: true},
		{addr: "239.1.2.3:80", kind: "multicast", priv: true, refused: true},
	}
	for _, tc := range tests {
		c := &config{allowLoopback: tc.loopback, allowPrivate: tc.priv}
		err := c.checkAddress(tc.addr)
		if got := err != nil; got != tc.refused {
			t.Errorf("%s (loopback %v, private %v): err = %v, want refused %v", tc.addr, tc.loopback, tc.priv, err, tc.refused)
		}
		var ae *AddressError
		if err != nil && (!errors.Is(err, ErrRefusedAddress) || !errors.As(err, &ae) || ae.Kind != tc.kind) {
			t.Errorf("%s: err = %v, want an AddressError of kind %q", tc.addr, err, tc.kind)
		}
		// The error names the flag that allows the address, or says none does.
		flag := map[string]string{"loopback": "--allow-loopback", "private": "--allow-private", "link-local": "--allow-private"}[tc.kind]
		if want := cmp.Or(flag, "no option allows it"); err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %q, want it to say %q", tc.addr, err, want)
		}
	}
	if err := (&config{}).checkAddress("not an address"); err == nil || errors.Is(err, ErrRefusedAddress) {
		t.Errorf("a malformed address: %v", err)
	}
}
