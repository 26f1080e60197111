// Package placeholder says when a command is a syntax template rather than
// a step: a form whose words stand for the reader's own values (`git clone
// <url>`, `ls [options]`, `git add FILE_NAME`, `{project}`), or one the
// prose around it explains or calls a general form. Such a block is shown to
// be read, not run: running it would fail on the placeholder and blame the
// page for what it never asked.
package placeholder

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/shell"
)

var (
	quoted = regexp.MustCompile(`'[^']*'|"(?:[^"\\]|\\.)*"`)
	// A placeholder: <name>, <your-project>, <file name>; not <<EOF or a
	// redirect to a file.
	// Words in any script (<имя_пользователя>), and the look-alike brackets
	// typography puts in (‹name>, «name»).
	placeholder = regexp.MustCompile(`(?:^|[\s=/:])[<‹«]\pL[\pL\pN_.-]*(?:[ _-][\pL\pN_.-]+)*[>›»](?:$|[\s/:.,])|\{\{\s*[A-Za-z][\w.-]*\s*\}\}`)
	// placeholderWord is the placeholder alone, to fill it in.
	placeholderWord = regexp.MustCompile(`[<‹«]\pL[\pL\pN_.-]*(?:[ _-][\pL\pN_.-]+)*[>›»]|\{\{\s*[A-Za-z][\w.-]*\s*\}\}`)
	optionalArgs    = regexp.MustCompile(`(?:^|\s)\[[A-Za-z_-]+(?:\.\.\.)?\](?:$|\s)|` +
		`(?:^|\s)(?:args?|arguments?|files?|file-?names?|paths?|path-?names?|options?|flags?|packages?|names?|targets?|params?|commands?|dirs?|directories|urls?|items?|values?)\.\.\.(?:\s|$|\])`)
	wordOffsets = regexp.MustCompile(`\$\{\w+:[A-Za-z]\w*(?::[A-Za-z]\w*)?\}`)
	// MakeTemplate is make's syntax drawn as a rule: "target: prerequisites".
	MakeTemplate = regexp.MustCompile(`(?im)^\s*targets?\s*:\s*(?:prerequisites|dependencies|deps|sources)\b`)
)

// Template says why a command is a syntax template rather than a command,
// or "": `git clone <url>`, `ls [options]`, `${string:start:length}`.
func Template(command string) string {
	first := quoted.ReplaceAllString(textutil.FirstLine(command), "''")
	switch {
	case blank.MatchString(command):
		return "a fill-in exercise: " + strings.TrimSpace(blank.FindString(command)) + " is the blank for the reader's answer"
	case quotedCapsPlaceholder.MatchString(textutil.FirstLine(command)):
		return "a syntax template: " + quotedCapsPlaceholder.FindStringSubmatch(textutil.FirstLine(command))[1] + " is a placeholder"
	case placeholder.MatchString(first):
		return "a syntax template: " + strings.TrimSpace(placeholder.FindString(first)) + " is a placeholder"
	case optionalArgs.MatchString(first):
		return "a syntax template: " + strings.TrimSpace(optionalArgs.FindString(first)) + " stands for arguments"
	case wordOffsets.MatchString(command):
		return "a syntax template: " + wordOffsets.FindString(command) + " names its parts"
	case MakeTemplate.MatchString(command):
		return "a syntax template: " + strings.TrimSpace(MakeTemplate.FindString(command)) + " describes the syntax"
	case braceWord.MatchString(first):
		return "a syntax template: " + strings.TrimSpace(braceWord.FindString(first)) + " is a placeholder"
	case bracketWords.MatchString(first):
		return "a syntax template: " + bracketWords.FindString(first) + " stands for what the reader puts there"
	case bracketPhrase.MatchString(first):
		return "a syntax template: " + bracketPhrase.FindStringSubmatch(first)[1] + " stands for what the reader puts there"
	case pathTo.MatchString(first):
		return "a syntax template: " + strings.TrimSpace(pathTo.FindString(first)) + " stands for a path of the reader's own"
	}
	if w := capsCommand(first); w != "" {
		return "a syntax template: " + w + " is a placeholder (an upper-case word where a command goes)"
	}
	if m := capsCaseSubject.FindStringSubmatch(first); m != nil && !capsWords[m[1]] {
		return "a syntax template: " + m[1] + " is a placeholder (the upper-case word a case statement tests)"
	}
	if w := capsPlaceholder(first); w != "" {
		return "a syntax template: " + w + " is a placeholder (an upper-case word the reader replaces)"
	}
	if m := adaptComment.FindStringSubmatch(textutil.FirstLine(command)); m != nil {
		return "a command to adapt: its comment (" + strings.TrimSpace(m[1]) + ") tells the reader to put in their own values"
	}
	return ""
}

// blank is a run of three or more underscores standing alone (`chmod ___
// notes.txt`, `u=___,g=r`): an exercise sheet's blank where the reader
// writes the answer. No command or name is only underscores.
var blank = regexp.MustCompile(`(?:^|[\s=,:;(/'"])_{3,}(?:$|[\s,;:)/.'"])`)

// adaptComment is a comment after a command that tells the reader to
// change it to their own ("cd /srv/site  # adjust the path", "# Pfad
// anpassen", "# à adapter", "# 경로 수정"): the values in it are the
// author's.
var adaptComment = regexp.MustCompile(`(?i)\s#\s*(.*(?:\b(?:adjust|adapt|customi[sz]e)\b|\b(?:change|replace|edit|set)\s+(?:this|it|me|accordingly|as\s+needed|to\s+(?:your|match))\b|\byour\s+own\b|anpassen|ändern|ersetzen|adapter|modifier|remplacer|ajustar|cambiar|reemplazar|adaptar|alterar|substituir|modificare|sostituire|cambiare|измени|замени|修改|替换|改成|変更|置き換え|書き換え|변경|수정|바꾸).*)$`)

// Filled is command with each of its placeholders (<name>, {{name}}) replaced
// by a plain word, as a reader fills in their own value: what it then does
// (the variables it sets) can be read.
func Filled(command string) string {
	return placeholderWord.ReplaceAllString(command, "value")
}

// quotedCapsPlaceholder is an upper-case word in angle brackets, even inside
// quotes (`awk '<REGEXP> { action }'`): no program's text reads `<REGEXP>`,
// while a tag in a quoted string (`echo "<b>"`) is lower case.
// A here-document's `<<EOF>out` is not one.
var quotedCapsPlaceholder = regexp.MustCompile(`(?:^|[^<])(<[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*[A-Z0-9]>)`)

// braceWord is a placeholder in single braces, `{do_something}`,
// `{project-name}`, `{commit id}`, `{원격 저장소 주소}` (words in any script,
// a few of them): not a brace expansion ({a,b}, {1..3}), a variable (${x}),
// a group of commands ({ cmd; }) or find's {}.
var braceWord = regexp.MustCompile(`(?:^|[\s=/:])\{\pL[\pL\pN_-]*(?: [\pL\pN_-]+){0,3}\}(?:$|[\s/:.,;])`)

// capsWords are upper-case words commands take as they are: Git's refs, HTTP
// methods, signals, firewall chains and targets, a repository's usual
// files, encodings.
var capsWords = textutil.Set("HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
	"TERM", "KILL", "HUP", "INT", "QUIT", "USR1", "USR2", "STOP", "CONT", "EXIT", "ERR", "SIGINT", "SIGTERM", "SIGKILL", "SIGHUP",
	"INPUT", "OUTPUT", "FORWARD", "ACCEPT", "DROP", "REJECT", "PREROUTING", "POSTROUTING", "MASQUERADE",
	"README", "LICENSE", "CHANGELOG", "TODO", "NEWS", "AUTHORS", "COPYING", "INSTALL", "NOTICE", "CONTRIBUTING",
	"UTF8", "UTF-8", "ASCII", "NULL", "TRUE", "FALSE", "ALL", "NONE", "DEBUG", "INFO", "WARN", "WARNING", "ERROR", "FATAL")

// capsTakers are commands whose upper-case arguments are names, text or
// patterns, never placeholders: variables (export, unset), text (echo), a
// pattern (grep, tr), a test.
var capsTakers = textutil.Set("export", "unset", "declare", "readonly", "local", "printenv", "env", "set", "echo", "printf", "trap",
	"kill", "pkill", "killall", "iptables", "ip6tables", "tr", "test", "[", "grep", "egrep", "fgrep", "rg", "sed", "awk", "read")

// capsPlaceholder is an upper-case word a command takes as a bare argument
// where the reader puts their own value ("git clone REPOSITORY", "git add
// FILE_NAME", "cmake PATH"), in whatever language the page names it: at
// least four letters, or two parts joined by "_", not a variable's name
// ($NAME, NAME=), not an option's value (-X POST), not one of capsWords.
func capsPlaceholder(line string) string {
	for _, words := range shell.Calls(line) {
		if len(words) < 2 || capsTakers[path.Base(words[0])] {
			continue
		}
		for i, w := range words[1:] {
			if strings.HasPrefix(words[i], "-") && !strings.HasPrefix(words[i], "--") && len(words[i]) == 2 {
				continue // the value of a short option: -X POST, -s TERM
			}
			if capsArg.MatchString(w) && !capsWords[w] && (len(w) >= 4 || strings.Contains(w, "_")) {
				return w
			}
		}
	}
	return ""
}

// bracketWords is an optional part drawn in brackets, in upper case or in
// words in any script (`[OPTION]`, `[awk program]`, `[tên file]`,
// `[option(s)]`, `[ARGUMENT...]`), or a choice of letters (`[u/g/o]`,
// `[r,w,x]`), even with no space between two of them: no command takes that
// as it is. A shell test (`[ -f x ]`) and a character class (`[A-Z]`,
// `[abc]`) are not.
var bracketWords = regexp.MustCompile(`\[(?:[A-Z]{3,}[A-Z_-]*|\p{Ll}+(?: \p{Ll}+)+|[a-z]+\(s\)|[^\]\s/,|](?:[/,|][^\]\s/,|])+)(?:\.\.\.)?\]`)

// bracketPhrase is a phrase of words that opens with a capital, in brackets
// that stand as a word of their own (`git clone [Le nom de votre dépôt]`,
// `cd [Your folder]`), not an array's subscript (`${names[Ada Lovelace]}`).
var bracketPhrase = regexp.MustCompile(`(?:^|[\s='"\]])(\[\p{Lu}\p{Ll}*(?: \p{L}\p{Ll}*)+\])`)

// pathTo is "path/to", in the languages pages are written in (`/chemin/
// vers/fichier`, `ruta/a/archivo`, `Pfad/zu/Datei`): the path a reader puts
// their own in place of.
var pathTo = regexp.MustCompile(`(?i)(?:^|[\s='"/:])/?(?:path|chemin|ruta|pfad|caminho|percorso|pad|[sś]cie[zż]ka|путь|шлях|cesta|yol)/(?:to|vers|a|al|hacia|zu[mr]?|para|do|del|alla|naar|к|до|k|na)/\S*`)

// capsCommand is an upper-case word where a command goes (`sudo COMANDO`,
// `time COMMAND`): no program is named so; it stands for the reader's.
func capsCommand(line string) string {
	for _, words := range shell.Calls(line) {
		if len(words) > 1 && assignOp.MatchString(words[1]) {
			continue // `GREETING = hello`: a Makefile's or a config's setting
		}
		if len(words) > 0 && capsArg.MatchString(words[0]) && len(words[0]) >= 4 && !capsWords[words[0]] {
			return words[0]
		}
	}
	return ""
}

// assignOp is what follows a name being set in a Makefile or a config
// file: `=`, `:=`, `?=`, `+=`.
var assignOp = regexp.MustCompile(`^(?:=|:=|::=|\?=|\+=)`)

// capsCaseSubject is a case statement on a bare upper-case word (`case
// EXPRESSION in`): a value tests a variable ($x), never a word, so the word
// stands for one.
var capsCaseSubject = regexp.MustCompile(`^\s*case\s+([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)\s+in\b`)

// capsArg is an upper-case word, with digits and underscores.
var capsArg = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$`)

// capsWord is an upper-case word that may stand for something: FOLDER,
// ARCHIVE_NAME, YOUR_TOKEN.
var capsWord = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b`)

// GeneralForm is prose that introduces a form rather than a step.
var GeneralForm = regexp.MustCompile(`(?i)\b(?:general|basic|generic)\s+(?:form|syntax|shape|pattern)\b|\bsyntax\s+(?:is|of)\b|\bsyntax\s*:|\busage\s*:|\bthe\s+form\b`)

// Explained: a short block (text, of lines lines) whose upper-case words
// the prose before or after it explains ("where `ARCHIVE` is the name you
// want"), or that the prose before calls a general form, is a syntax
// template, not a step; the reason, or "". Environment variables the block
// sets or uses ($HOME, PATH=) are not placeholders.
func Explained(text string, lines int, before, after string) string {
	if lines == 0 || lines > 3 {
		return ""
	}
	prose := before + "\n" + after
	for _, w := range capsWord.FindAllString(text, -1) {
		if len(w) < 3 || strings.Contains(text, "$"+w) || strings.Contains(text, w+"=") || strings.Contains(text, "${"+w) {
			continue
		}
		if explains(prose, w) {
			return fmt.Sprintf("a syntax template: the prose explains %s as a placeholder", w)
		}
		if GeneralForm.MatchString(before) {
			return fmt.Sprintf("a syntax template: the prose calls it a general form, and %s stands for something", w)
		}
	}
	return ""
}

// explains: the prose says what an upper-case word stands for ("where
// `ARCHIVE` is", "replace `SOURCE` with", "`FOLDER` stands for").
func explains(prose, w string) bool {
	q := regexp.QuoteMeta("`" + w + "`")
	re := regexp.MustCompile(`(?i)(?:where|replace|substitute|change|and)\s+` + q + `|` + q + `\s+(?:is|are|stands|means|should|with|by)\b`)
	return re.MatchString(prose)
}

// Answer is a comment standing for the reader's own answer: "# add your solution here", "// your code here".
var Answer = regexp.MustCompile(`(?im)^\s*(?:#+|//+|--|;+)\s*(?:todo:?\s*)?(?:(?:add|write|put|type|enter|insert)\s+)?your\s+(?:own\s+)?(?:solution|answer|code|command)\s+here\b`)
