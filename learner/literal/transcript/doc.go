// Package transcript reads transcripts and prompts, in general. A block whose
// lines start with a prompt is a transcript: the prompt's owner runs the line
// (a shell prompt: the shell; a REPL's prompt: that REPL's program, started
// once and fed the lines in order) and the lines up to the next prompt are
// its output. A prompt is never part of a command. Prompts is the table of
// prompt rules, each named, with its owner, its continuation prompt and the
// mark its program puts before a result; Programs is the table of programs
// with a REPL: the commands that start one waiting for input, how prose names
// it, the languages typed into it, and how it is run fed a page's input
// without printing its prompts (WithInput).
//
// What a prompt means is sometimes decided by what came before: a bare `> `
// is the shell's continuation after an unfinished command, a REPL's prompt in
// a block of its language, after a step that started it or a sentence that
// names it, and otherwise the shell's; `# ` is a root prompt only in a block
// that reads as a root transcript. Every decision records its evidence
// (package rule).
package transcript
