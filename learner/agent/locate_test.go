package agent

import (
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

const locateTutorial = `# Deploy the demo

First, install the tools.

` + "```bash" + `
$ npm install
$ npm run build
` + "```" + `

Then edit **config.yaml** and set the port to ` + "`8080`" + `.

1. Start the server:

   ` + "```bash" + `
   node server.js --port 8080
   ` + "```" + `

Open http://localhost:8080 in your browser; you should see “Hello, world!”.
`

func TestLocate(t *testing.T) {
	tut := spectest.Tutorial(t, locateTutorial)
	tests := []struct {
		quote string
		line  int
		how   string
	}{
		{"$ npm run build", 7, "exact"},
		{"npm run build", 7, "exact"},
		{"node server.js --port 8080", 15, "exact"},
		{"Then edit **config.yaml** and set the port to `8080`.", 10, "exact"},
		{"then edit config.yaml and set the port to 8080", 10, "normalized"},
		{"Open http://localhost:8080 in your browser; you should see \"Hello, world!\"", 18, "normalized"},
		{"Start the server", 12, "exact"},
		{"start THE server", 12, "normalized"},
		{"$ npm install\n$ npm run build", 6, "exact"},
		{"npm install && npm run build", 6, "closest"},
		{"the server on port 8080 with node", 15, "closest"},
		{"completely unrelated words here", 0, ""},
		{"", 0, ""},
		// "line 12" in the model's prose is not a location.
		{"see line 12", 0, ""},
	}
	for _, tt := range tests {
		loc, ok := Locate(tut, tt.quote)
		if loc.Line != tt.line || (ok && loc.How != tt.how) || ok != (tt.line != 0) {
			t.Errorf("Locate(%q) = %+v, %v; want line %d by %s", tt.quote, loc, ok, tt.line, tt.how)
		}
	}
	if loc, _ := Locate(tut, "npm run build"); loc.Quote != "$ npm run build" {
		t.Errorf("quote = %q, want the tutorial's own text", loc.Quote)
	}
}

func TestCommandLine(t *testing.T) {
	tut := spectest.Tutorial(t, locateTutorial)
	for cmd, want := range map[string]int{"npm install": 6, "  node server.js --port 8080 ": 15, "ls -la": 0, "": 0} {
		if got := CommandLine(tut, cmd); got != want {
			t.Errorf("CommandLine(%q) = %d, want %d", cmd, got, want)
		}
	}
}
