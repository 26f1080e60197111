package reading

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/shell"
)

var (
	// anotherTerminal marks a command the reader runs beside the others.
	anotherTerminal = regexp.MustCompile(`(?i)\b(?:in|from|open|using)\s+(?:another|the\s+other|a\s+new|a\s+second|a\s+separate|another\s+new|a\s+different)\s+` +
		`(?:terminal|shell|tab|window|console|session)\b`)
	// ServerText is what a program that keeps running prints once it is up.
	ServerText = regexp.MustCompile(`(?i)serving (?:http )?on|listening on|listening at|running on https?://|started server|server (?:started|running|listening|is running)|` +
		`press ctrl\+c to (?:quit|stop|exit)|ctrl-c to (?:quit|stop)|development server at|now listening|application started|ready in \d`)
)

// knownServer is a command that starts a development server, which keeps
// running whether or not the tutorial shows what it prints.
var knownServer = regexp.MustCompile(`^(?:sudo\s+)?(?:(?:uv|poetry|pipenv|pdm|hatch)\s+run\s+)?(?:fastapi\s+(?:dev|run)\b|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:start|dev|serve)|npx\s+(?:vite|next\s+dev|serve)|` +
	`(?:flask|uvicorn|gunicorn|hypercorn)\b|python[\d.]*\s+-m\s+(?:http\.server|flask\s+run|uvicorn)|` +
	`python[\d.]*\s+manage\.py\s+runserver|(?:bundle\s+exec\s+)?rails\s+s(?:erver)?\b|(?:hugo|mkdocs)\s+serve|jekyll\s+serve|` +
	`php\s+-S\b|php\s+artisan\s+serve|docker\s+compose\s+up(?:\s+[^-\s]\S*)*\s*$|` +
	// Daemons started in the foreground, as pages do to show them up.
	`(?:redis-server|valkey-server|mongod|memcached|mysqld|mariadbd|nats-server|rabbitmq-server|etcd)(?:\s+\S+)*\s*$|postgres\s+-D\b|caddy\s+run\b|minio\s+server\b|vault\s+server\s+-dev\b|consul\s+agent\s+-dev\b)`)

// markServers finds servers: a command whose shown output (in its block or
// the block after it) is what a server prints when it is up. Every
// background command learns what it should show, to know when to go on.
func markServers(steps []Step) {
	for i := range steps {
		if steps[i].Kind != StepRun {
			continue
		}
		shown := steps[i].Command.Expected
		if len(shown) == 0 && i+1 < len(steps) && steps[i+1].Kind == StepCompare {
			shown = steps[i+1].Expected
		}
		if ServerText.MatchString(expectedText(shown)) || knownServer.MatchString(shell.LastInChain(steps[i].Command.Text)) {
			steps[i].Background = true
		}
		if steps[i].Background && len(steps[i].Shown) == 0 { // an author's `ready=` stays
			steps[i].Shown = shown
		}
	}
}

func expectedText(lines []expect.Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}
