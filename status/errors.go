package status

import (
	"errors"
	"fmt"
)

// ErrUnknownRun is the error of asking for a run that is not applied. The
// controller's API answers it with 404 and the CLI turns a 404 back into it,
// so neither end matches error text.
var ErrUnknownRun = errors.New("not found")

// ErrNoStatusYet is the error of asking for the status of a run that is
// applied but whose first status is not written yet: ask again shortly.
var ErrNoStatusYet = errors.New("no status written yet")

// UnknownRun says that no run called name is applied.
func UnknownRun(name string) error {
	return fmt.Errorf("smilerun %q %w", name, ErrUnknownRun)
}

// The reasons an API error carries, so the client can map it back.
const (
	ReasonNotFound    Reason = "NotFound"
	ReasonNoStatusYet Reason = "NoStatusYet"
)
