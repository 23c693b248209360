package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentjudge/judge/result"
)

// AddressError is a connection refused before it was made: the resolved
// address is loopback, link-local or private and the configuration does
// not allow it. It matches ErrRefusedAddress.
type AddressError struct {
	Addr netip.Addr
	Kind string // "loopback", "private", "link-local", "unspecified", "multicast"
}

func (e *AddressError) Error() string {
	return fmt.Sprintf("%s address %s refused (%s)", e.Kind, e.Addr, e.allowedBy())
}

// allowedBy names what lets a request reach an address of the error's
// kind: judge's flag and the executor's option.
func (e *AddressError) allowedBy() string {
	switch e.Kind {
	case "loopback":
		return "judge's --allow-loopback flag (executor.WithAllowLoopback) allows it"
	case "private", "link-local":
		return "judge's --allow-private flag (executor.WithAllowPrivate) allows it"
	}
	return "no option allows it"
}

// Is makes errors.Is(err, ErrRefusedAddress) true.
func (e *AddressError) Is(target error) bool { return target == ErrRefusedAddress }

// addressKind classifies an address: "" for a public one.
func addressKind(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		return "loopback"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsPrivate() || cgnat.Contains(a):
		return "private"
	case a.IsMulticast() || a.IsInterfaceLocalMulticast():
		return "multicast"
	}
	return ""
}

// cgnat is the shared address space of carrier-grade NAT (RFC 6598).
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// checkAddress refuses a dial to an address the configuration does not
// allow. It runs in the dialer's Control hook, on the address actually
// dialled after DNS resolution, so a name that resolves (or later
// re-resolves) to a private address cannot dodge it.
func (c *config) checkAddress(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("dial %s: %w", address, err)
	}
	a := ap.Addr().Unmap()
	switch kind := addressKind(a); kind {
	case "":
		return nil
	case "loopback":
		if c.allowLoopback {
			return nil
		}
		return &AddressError{Addr: a, Kind: kind}
	case "private", "link-local":
		if c.allowPrivate {
			return nil
		}
		return &AddressError{Addr: a, Kind: kind}
	default:
		return &AddressError{Addr: a, Kind: kind}
	}
}

// newHTTPClient is the http_client primitive's client: no proxy from the
// environment (the address check must see the real destination), every
// dial checked, at most 5 redirects (each checked at its dial too).
func newHTTPClient(cfg config) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error { return cfg.checkAddress(address) }}
	tr := &http.Transport{
		Proxy: nil, DialContext: d.DialContext, ForceAttemptHTTP2: true,
		MaxIdleConns: 64, IdleConnTimeout: 90 * time.Second, TLSHandshakeTimeout: 10 * time.Second,
		ResponseHeaderTimeout: 0,
	}
	return &http.Client{Transport: tr, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("stopped after 5 redirects")
		}
		return nil
	}}
}

// expandURL fills a url_template: ${VAR} from the environment and {name}
// from the arguments, each value escaped for where it lands (a path
// segment before '?', a query value after it).
func expandURL(tmpl string, env func(string) (string, bool), args map[string]any) (string, error) {
	var out strings.Builder
	s, err := expand(tmpl, env, paramLookup(args), func(prefix, v string) string {
		if strings.ContainsAny(prefix, "?#") {
			return url.QueryEscape(v)
		}
		return url.PathEscape(v)
	})
	out.WriteString(s)
	return out.String(), err
}

// apiRequest is the HTTP request an api tool's config makes of a call's
// arguments.
type apiRequest struct {
	method string
	u      *url.URL
	hdr    http.Header
	body   []byte // nil for none
}

// buildAPIRequest fills the api tool's config with args: the URL template and
// its query, the headers and the body (the arguments as JSON for a POST,
// PUT or PATCH without one). Variables come from the runner's environment.
func (r *Runner) buildAPIRequest(cfg map[string]any, args map[string]any) (apiRequest, error) {
	method := strings.ToUpper(str(cfg["method"]))
	tmpl := str(cfg["url_template"])
	if tmpl == "" {
		tmpl = str(cfg["url"])
	}
	raw, err := expandURL(tmpl, r.cfg.getenv, args)
	if err != nil {
		return apiRequest{}, fmt.Errorf("config.url_template: %w", err)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apiRequest{}, fmt.Errorf("config.url_template does not give an absolute http(s) URL once filled")
	}
	if q := asMap(cfg["query"]); len(q) > 0 {
		vals := u.Query()
		for k, v := range q {
			s, err := expand(paramText(v), r.cfg.getenv, paramLookup(args), nil)
			if err != nil {
				return apiRequest{}, fmt.Errorf("config.query.%s: %w", k, err)
			}
			vals.Set(k, s)
		}
		u.RawQuery = vals.Encode()
	}
	hdr := http.Header{}
	for k, v := range asMap(cfg["headers"]) {
		s, err := expand(paramText(v), r.cfg.getenv, paramLookup(args), nil)
		if err != nil {
			return apiRequest{}, fmt.Errorf("config.headers.%s: %w", k, err)
		}
		if strings.ContainsAny(s, "\r\n\x00") {
			return apiRequest{}, fmt.Errorf("config.headers.%s: the value holds a line break", k)
		}
		hdr.Set(k, s)
	}
	var body []byte
	if b, ok := cfg["body"]; ok && b != nil {
		v, err := fillBody(b, r.cfg.getenv, args, 0)
		if err != nil {
			return apiRequest{}, fmt.Errorf("config.body: %w", err)
		}
		if body, err = json.Marshal(v); err != nil {
			return apiRequest{}, err
		}
	} else if method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		if body, err = json.Marshal(args); err != nil {
			return apiRequest{}, err
		}
	}
	if body != nil && hdr.Get("Content-Type") == "" {
		hdr.Set("Content-Type", "application/json")
	}
	if hdr.Get("Accept") == "" {
		hdr.Set("Accept", "application/json")
	}
	return apiRequest{method: method, u: u, hdr: hdr, body: body}, nil
}

// runAPI runs an api tool through the http_client primitive.
func (r *Runner) runAPI(ctx context.Context, rn *runnable, args map[string]any) (*Result, error) {
	cfg := rn.tool.Config
	ar, err := r.buildAPIRequest(cfg, args)
	if err != nil {
		return nil, err
	}
	method, u, hdr, body := ar.method, ar.u, ar.hdr, ar.body
	timeout := toolTimeout(cfg, nil, r.cfg.limits.Timeout)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res := &Result{}
	lim := r.cfg.limits
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(cctx, method, u.String(), bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header = hdr.Clone()
		if body == nil {
			req.Body, req.ContentLength = http.NoBody, 0
		}
		res.Attempts++
		resp, err := r.http.Do(req)
		if err != nil {
			if errors.Is(err, ErrRefusedAddress) {
				return nil, err
			}
			if cctx.Err() != nil && ctx.Err() == nil {
				return nil, fmt.Errorf("%w after %s (%d attempts)", ErrTimeout, timeout, res.Attempts)
			}
			return nil, fmt.Errorf("%s %s: %w", method, u.Redacted(), err)
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, lim.MaxOutput+1))
		resp.Body.Close()
		if err != nil {
			if cctx.Err() != nil && ctx.Err() == nil {
				return nil, fmt.Errorf("%w after %s reading the answer", ErrTimeout, timeout)
			}
			return nil, fmt.Errorf("reading the answer of %s: %w", u.Redacted(), err)
		}
		res.Status = resp.StatusCode
		if int64(len(data)) > lim.MaxOutput {
			res.Truncated = true
			data = data[:lim.MaxOutput]
		}
		retryable := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		if retryable && attempt < lim.Retries {
			wait := min(100*time.Millisecond<<attempt, lim.MaxRetryWait)
			if ra, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
				wait = ra
			}
			dl, hasDL := cctx.Deadline()
			if wait <= lim.MaxRetryWait && (!hasDL || time.Until(dl) > wait) {
				r.cfg.logger.Info("retrying", "tool", rn.tool.ID, "status", resp.StatusCode, "wait", wait)
				t := time.NewTimer(wait)
				select {
				case <-t.C:
					continue
				case <-cctx.Done():
					t.Stop()
				}
			}
		}
		r.httpAnswer(res, rn, data)
		return res, nil
	}
}

// httpAnswer fills the value and text of an HTTP answer: the body parsed
// when it is JSON, response_transform applied to a successful one.
func (r *Runner) httpAnswer(res *Result, rn *runnable, data []byte) {
	res.IsError = res.Status >= 400 || res.Truncated
	res.Text = string(data)
	v, isJSON := jsonValue(data)
	if !isJSON || res.Truncated {
		res.Value = res.Text
		if rn.path != nil && !res.IsError {
			res.IsError = true
			res.Text = "the answer is not JSON, so response_transform " + rn.path.src + " cannot be applied: " + result.Clip(res.Text, 200)
			res.Value = res.Text
		}
		if res.Truncated {
			res.Text = fmt.Sprintf("%s\n[answer cut at %d bytes]", res.Text, r.cfg.limits.MaxOutput)
			res.Value = res.Text
		}
		return
	}
	res.Value = v
	if rn.path != nil && !res.IsError {
		res.Value = rn.path.eval(v)
		if b, err := json.Marshal(res.Value); err == nil {
			res.Text = string(b)
		}
	}
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h string, now time.Time) (time.Duration, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(h); err == nil {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, 1<<20)) * time.Second, true
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// fillBody fills config.body: a string that is exactly "{name}" becomes
// the argument's JSON value; other strings get ${VAR} and {name} filled as
// text; objects and arrays are filled member by member.
func fillBody(v any, env func(string) (string, bool), args map[string]any, depth int) (any, error) {
	if depth > 64 {
		return nil, errors.New("nested deeper than 64 levels")
	}
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, "{") && strings.HasSuffix(x, "}") && !strings.ContainsAny(x[1:len(x)-1], "{}$") && len(x) > 2 {
			return args[strings.TrimSpace(x[1:len(x)-1])], nil
		}
		return expand(x, env, paramLookup(args), nil)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			f, err := fillBody(e, env, args, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = f
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			f, err := fillBody(e, env, args, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = f
		}
		return out, nil
	}
	return v, nil
}
