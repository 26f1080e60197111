package reading

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

type cmdLine struct {
	Line, EndLine int
	Text          string
}

func cmdLines(cmds []Command) []cmdLine {
	var out []cmdLine
	for _, c := range cmds {
		out = append(out, cmdLine{c.Line, c.EndLine, c.Text})
	}
	return out
}

func TestScriptCommands(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []cmdLine
	}{
		{"one per line, comments and blanks skipped", "# install\nmkdir app\n\ncd app\n", []cmdLine{
			{11, 11, "mkdir app"}, {13, 13, "cd app"}}},
		{"backslash continuation", "docker run \\\n  --rm \\\n  hello\necho done\n", []cmdLine{
			{10, 12, "docker run \\\n  --rm \\\n  hello"}, {13, 13, "echo done"}}},
		{"quoted heredoc with a redirection after it", "cat <<'EOF' > a.txt\nhello $X\n\nEOF\nls\n", []cmdLine{
			{10, 13, "cat <<'EOF' > a.txt\nhello $X\n\nEOF"}, {14, 14, "ls"}}},
		{"if block is one command", "if [ -f x ]; then\n  echo yes\nelse\n  echo no\nfi\necho after\n", []cmdLine{
			{10, 14, "if [ -f x ]; then\n  echo yes\nelse\n  echo no\nfi"}, {15, 15, "echo after"}}},
		{"for loop and function", "for f in a b; do\n  echo $f\ndone\ngreet() {\n  echo hi\n}\ngreet\n", []cmdLine{
			{10, 12, "for f in a b; do\n  echo $f\ndone"}, {13, 15, "greet() {\n  echo hi\n}"}, {16, 16, "greet"}}},
		{"statements sharing a line stay together", "cd app; ls\nif true; then\n  echo x\nfi; echo y\n", []cmdLine{
			{10, 10, "cd app; ls"}, {11, 13, "if true; then\n  echo x\nfi; echo y"}}},
		{"trailing comment kept on its line, comment lines after dropped", "ls -la  # list\n# done\n", []cmdLine{
			{10, 10, "ls -la  # list"}}},
		{"unparsable script falls back to lines", "echo (\nls\n", []cmdLine{
			{10, 10, "echo ("}, {11, 11, "ls"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cmdLines(scriptCommands(spectest.Code(10, tt.text)))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// A console block drawn without prompts, every line a known command, runs;
// right after a command's block it is that command's output (program names
// `ls` printed), and so it is after a sentence that introduces output.
func TestConsoleBlockWithoutPrompts(t *testing.T) {
	page := "# T\n\n```console\n$ ls tools\n```\n\n```console\ngit\nmake\n```\n\nThen set it up:\n\n```console\nmkdir demo\ncd demo\n```\n\n" +
		"It prints:\n\n```console\ngit\nmake\n```\n"
	var got []string
	for _, s := range Plan(spectest.Tutorial(t, page)) {
		got = append(got, fmt.Sprint(s.Kind)+" "+s.Command.Text)
	}
	want := []string{"run ls tools", "compare ", "run mkdir demo", "run cd demo", "compare "}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan = %q, want %q", got, want)
	}
}
