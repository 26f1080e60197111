package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Listeners are the controller's two addresses: the callback listener
// containers reach (the engine's gateway, never all interfaces) and the
// loopback API for the CLI and observers.
type Listeners struct {
	Callback, API net.Listener
}

// Listen opens the callback listener on host and the API listener on
// apiAddr. It refuses an unspecified host: SMILE never listens on all
// interfaces.
func Listen(host, apiAddr string) (*Listeners, error) {
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		return nil, fmt.Errorf("no usable address for the container callback listener (got %q): SMILE never listens on all interfaces", host)
	}
	cb, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, fmt.Errorf("listen for container callbacks on %s: %w", host, err)
	}
	api, err := net.Listen("tcp", apiAddr)
	if err != nil {
		cb.Close()
		return nil, fmt.Errorf("listen for the API on %s: %w", apiAddr, err)
	}
	return &Listeners{Callback: cb, API: api}, nil
}

// Serve serves the callback handler and the whole API on ls until ctx ends,
// then shuts both down (2 s each) and lets the observers' WebSocket
// connections send what they still have (2 s at most). wg tracks the
// serving goroutines and the shutdown; fail hears of a server that stopped
// on its own.
func (s *Server) Serve(ctx context.Context, ls *Listeners, wg *sync.WaitGroup, fail func(error)) {
	var servers []*http.Server
	for _, l := range []struct {
		ln net.Listener
		h  http.Handler
	}{{ls.Callback, s.CallbackHandler()}, {ls.API, s.Handler()}} {
		srv := &http.Server{Handler: l.h, ReadHeaderTimeout: 10 * time.Second}
		servers = append(servers, srv)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := srv.Serve(l.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				fail(err)
			}
		}()
	}
	api := s.obs // the observers of the API handler just built
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-ctx.Done()
		for _, srv := range servers {
			sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_ = srv.Shutdown(sctx)
			cancel()
		}
		if api != nil {
			api.drain(2 * time.Second)
		}
	}()
}
