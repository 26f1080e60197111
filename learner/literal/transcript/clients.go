package transcript

import (
	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// clientWords are shell builtins whose names the command languages of
// database clients use too (redis-cli's `set`, `echo`, `type`; `help`,
// `exit` in most of them); commandClients are those clients. A language's
// interpreter (python3, node) is not one: a shell block after it is the
// shell's.
var (
	clientWords    = textutil.Set("set", "echo", "type", "help", "exec", "wait", "kill", "test", "read", "eval", "exit", "quit")
	commandClients = textutil.Set("redis-cli", "valkey-cli", "psql", "mysql", "mariadb", "sqlite3", "mongosh", "mongo", "cqlsh", "clickhouse-client")
)

// ClientWord reports whether word, the first word of a line after cmd
// started a program, is that program's command rather than the shell
// builtin of the same name: only after a database client.
func ClientWord(cmd, word string) bool {
	return commandClients[shell.CommandName(cmd)] && clientWords[word]
}
