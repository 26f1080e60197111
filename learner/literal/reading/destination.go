package reading

import "github.com/smile-loop/smile/learner/literal/destination"

// Destination is a file a code block is to be written to.
type Destination = destination.Destination
