package reconcile

import (
	"context"
	"errors"
	"net"
	"net/url"

	"github.com/smile-loop/smile/runtime"
)

// relayCallback is the callback listener's URL as the host reaches it:
// host.docker.internal is the bridge gateway.
func (t *transition) relayCallback(ctx context.Context) (*url.URL, error) {
	u, err := url.Parse(t.r.CallbackURL)
	if err != nil {
		return nil, err
	}
	if t.r.CallbackAddr != "" {
		u.Host = t.r.CallbackAddr
		return u, nil
	}
	if u.Hostname() == "host.docker.internal" {
		gw := relayGateway(ctx, t.r.Runtime)
		if gw == "" {
			return nil, errors.New("no bridge gateway address for host.docker.internal")
		}
		u.Host = net.JoinHostPort(gw, u.Port())
	}
	return u, nil
}

func relayGateway(ctx context.Context, rt runtime.Runtime) string {
	info, err := rt.Info(ctx)
	if err != nil {
		return ""
	}
	return info.GatewayIP
}
