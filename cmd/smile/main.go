// Command smile checks Markdown tutorials by letting a simulated learner
// follow them in a container. See `smile --help`.
package main

import (
	"os"

	"github.com/smile-loop/smile/cmd/smile/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Streams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}))
}
