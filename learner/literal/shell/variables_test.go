package shell

import (
	"reflect"
	"testing"
)

func TestUndefinedVariables(t *testing.T) {
	session := map[string]bool{"APP_HOME": true}
	isSet := func(name string) bool { return session[name] }
	tests := []struct {
		command string
		want    []string
	}{
		{`cd $PROJECT_DIR`, []string{"PROJECT_DIR"}},
		{`echo "${API_URL}/health"`, []string{"API_URL"}},
		{`echo $APP_HOME`, nil},
		{`cp $SRC $DEST && echo $SRC`, []string{"SRC", "DEST"}},
		// Assigned earlier in the same command.
		{`NAME=world; echo "hello $NAME"`, nil},
		{`export PORT=8080 && curl localhost:$PORT`, nil},
		{`declare -r MODE=dev; echo $MODE`, nil},
		{"for f in *.txt; do\n  echo $f\ndone", nil},
		{`read -r first second < names.txt; echo $first $second`, nil},
		{`read -p "Name: " -a parts; echo ${parts[0]}`, nil},
		{`while read line; do echo $line; done < f`, nil},
		{`read; echo $REPLY`, nil},
		{`printf -v stamp '%s' now; echo $stamp`, nil},
		{`for ((i=0; i<3; i++)); do echo $i; done`, nil},
		{`(( n = 5 )); echo $n`, nil},
		{`getopts ab opt; echo $opt`, nil},
		// Used before it is assigned.
		{`echo $LATER; LATER=1`, []string{"LATER"}},
		// Special, positional and shell-managed.
		{`echo $1 $@ $# $? $$ $! $0 ${10} $_ $-`, nil},
		{`echo $HOME $PWD $PATH $RANDOM $USER $HOSTNAME $BASH_VERSION $LC_ALL $SECONDS`, nil},
		// Guarded.
		{`echo ${TAG:-latest} ${TAG-x} ${TAG:=x} ${TAG:?set TAG} ${TAG:+yes} ${#TAG}`, nil},
		{`if [ -z "$TOKEN" ]; then echo "set TOKEN"; fi`, nil},
		{`[[ -n $TOKEN ]] && echo yes`, nil},
		{`test -n "$TOKEN" || echo none`, nil},
		// Not expanded when the command runs.
		{`echo '$NOT_EXPANDED'`, nil},
		{"cat <<'EOF' > run.sh\necho $INSIDE\nEOF", nil},
		{"cat <<\"EOF\"\n$INSIDE\nEOF", nil},
		{`greet() { echo "hi $WHO"; }`, nil},
		{`bash -c 'echo $LATER_ARG'`, nil},
		// Expanded: unquoted heredoc, double quotes, command substitution.
		{"cat <<EOF > conf\nhost=$DB_HOST\nEOF", []string{"DB_HOST"}},
		{`echo "$(ls $TARGET_DIR)"`, []string{"TARGET_DIR"}},
		// Sourcing can define anything from there on.
		{`source .env && echo $DB_URL`, nil},
		{`echo $BEFORE; . ./vars.sh; echo $AFTER`, []string{"BEFORE"}},
		// Not parsable: the shell will report it.
		{`echo $(`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			if got := UndefinedVariables(tt.command, isSet); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("undefinedVariables(%q) = %v, want %v", tt.command, got, tt.want)
			}
		})
	}
}
