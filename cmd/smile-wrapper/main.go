// Command smile-wrapper runs inside a Student or Mentor container: it reads
// its task from $SMILE_TASK, plays the role and posts the result to
// $SMILE_CALLBACK_URL. Build it static: CGO_ENABLED=0.
package main

import (
	"os"

	"github.com/smile-loop/smile/wrappers"
)

func main() {
	os.Exit(wrappers.Main())
}
