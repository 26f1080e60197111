package server

import (
	"net/http"
	"slices"
	"time"

	"github.com/gorilla/websocket"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/server/runview"
)

// The events of GET /ws/runs, the index's feed.
const (
	// WSRuns replaces the whole index (RunsResponse): first, and whenever a
	// run is applied or deleted.
	WSRuns = "runs"
	// WSRun is one run's row after a transition (runview.Row).
	WSRun = "run"
)

// runsPollInterval is how often the index feed looks for runs applied or
// deleted and for failed reconciles (neither is a transition).
const runsPollInterval = time.Second

// serveRunsWS streams the index: every run's row, then a row whenever a run
// makes a transition. Progress reports are left out: a row does not show
// them.
func (o *observers) serveRunsWS(w http.ResponseWriter, r *http.Request) {
	stop, conn := o.track()
	if conn == nil {
		writeError(w, http.StatusServiceUnavailable, "the controller is stopping")
		return
	}
	defer o.untrack(conn)
	o.hookShutdown(r)
	sub := o.s.b.Subscribe()
	defer sub.Close()
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	boundSendBuffer(c)
	ctx := closeRead(c)

	f := &feed{}
	rows := o.s.rows()
	if f.write(c, WSEvent{Event: WSRuns, Payload: RunsResponse{Runs: rows}}) != nil {
		return
	}
	tick := time.NewTicker(runsPollInterval)
	defer tick.Stop()
	for {
		var e WSEvent
		select {
		case <-ctx.Done():
			return
		case <-stop.Done():
			msg := websocket.FormatCloseMessage(websocket.CloseGoingAway, "the controller is stopping")
			_ = c.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
			return
		case ev := <-sub.C:
			if ev.Action == events.ActProgress || ev.Run == nil {
				continue
			}
			e = WSEvent{Event: WSRun, Payload: o.s.row(ev.Run.Metadata.Name)}
		case <-tick.C:
			now := o.s.rows()
			if slices.EqualFunc(now, rows, sameRow) {
				continue
			}
			rows, e = now, WSEvent{Event: WSRuns, Payload: RunsResponse{Runs: now}}
		}
		if f.write(c, e) != nil {
			return
		}
	}
}

// sameRow: the poll sends the index again only when a run came or went, or
// a reconcile failed or recovered; transitions have their own events.
func sameRow(a, b runview.Row) bool { return a.Name == b.Name && a.Error == b.Error }
