// Package servers tells a command that keeps running, a server or a daemon
// in the foreground, from one that ends: by what it is (a development
// server's command, a database started in the foreground) or by what it
// prints once it is up ("Listening on", "press Ctrl+C to quit"). The
// Student starts such a command detached and goes on once it is up.
package servers

import "regexp"

var (
	// UpText is what a program that keeps running prints once it is up.
	UpText = regexp.MustCompile(`(?i)serving (?:http )?on|listening on|listening at|running on https?://|started server|server (?:started|running|listening|is running)|` +
		`press ctrl\+c to (?:quit|stop|exit)|ctrl-c to (?:quit|stop)|development server at|now listening|application started|ready in \d`)

	// known is a command that starts a development server, which keeps
	// running whether or not the tutorial shows what it prints.
	known = regexp.MustCompile(`^(?:sudo\s+)?(?:(?:uv|poetry|pipenv|pdm|hatch)\s+run\s+)?(?:fastapi\s+(?:dev|run)\b|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:start|dev|serve)|npx\s+(?:vite|next\s+dev|serve)|` +
		`(?:flask|uvicorn|gunicorn|hypercorn)\b|python[\d.]*\s+-m\s+(?:http\.server|flask\s+run|uvicorn)|` +
		`python[\d.]*\s+manage\.py\s+runserver|(?:bundle\s+exec\s+)?rails\s+s(?:erver)?\b|(?:hugo|mkdocs)\s+serve|jekyll\s+serve|` +
		`php\s+-S\b|php\s+artisan\s+serve|docker\s+compose\s+up(?:\s+[^-\s]\S*)*\s*$|` +
		// Daemons started in the foreground, as pages do to show them up.
		`(?:redis-server|valkey-server|mongod|memcached|mysqld|mariadbd|nats-server|rabbitmq-server|etcd)(?:\s+\S+)*\s*$|postgres\s+-D\b|caddy\s+run\b|minio\s+server\b|vault\s+server\s+-dev\b|consul\s+agent\s+-dev\b)`)
)

// Known reports whether command starts a server or a daemon that stays in
// the foreground: `flask run`, `npm run dev`, `redis-server`.
func Known(command string) bool { return known.MatchString(command) }
