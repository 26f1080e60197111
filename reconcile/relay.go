package reconcile

import (
	"context"
	"fmt"
	"net"
	"net/url"
)

// relayCallback is the callback listener's URL as the host reaches it: the
// runtime's host name stands for the bridge gateway.
func (t *transition) relayCallback(ctx context.Context) (*url.URL, error) {
	u, err := url.Parse(t.r.CallbackURL)
	if err != nil {
		return nil, err
	}
	if t.r.CallbackAddr != "" {
		u.Host = t.r.CallbackAddr
		return u, nil
	}
	info, err := t.r.Runtime.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the host's address: %w", err)
	}
	if info.HostName != "" && u.Hostname() == info.HostName {
		if info.GatewayIP == "" {
			return nil, fmt.Errorf("no bridge gateway address for %s", info.HostName)
		}
		u.Host = net.JoinHostPort(info.GatewayIP, u.Port())
	}
	return u, nil
}
