package transcript

import "github.com/smile-loop/smile/learner/literal/expect"

// Command is one top-level command of a code block with the tutorial lines it
// spans. Multi-line commands (continuations, heredocs, if/for/while blocks,
// functions) are one command.
type Command struct {
	Line    int // the tutorial line of its first line
	EndLine int
	Text    string
	// Expected is the output a console block shows after the command.
	Expected []expect.Line
	// Folder is the folder a transcript's prompt shows for it (`/home` in
	// `host:/home$ ls`, `Demo1` in `[ana@lab Demo1]$ cmake .`), "" when the
	// prompt shows none.
	Folder string
}
