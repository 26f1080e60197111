package expect

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
)

// Output that changes from run to run (timestamps, hashes, temporary paths,
// durations, process ids) never makes a mismatch: both sides are masked
// before they are compared. Output the tutorial calls only an example
// ("something like") is compared more loosely still: paths, users, hosts,
// numbers and the order of lines may differ, and `ls -l` rows match bare
// names.
var (
	volatileMasks = []struct {
		re   *regexp.Regexp
		mask string
	}{
		{regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?`), "<time>"},
		{regexp.MustCompile(`\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s+)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2}\b(?:,?\s+\d{4}\b)?`), "<date>"},
		{regexp.MustCompile(`\b\d{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\s+\d{4}\b`), "<date>"},
		{regexp.MustCompile(`\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s?[AaPp][Mm])?\b`), "<time>"},
		{regexp.MustCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`), "<id>"},
		{regexp.MustCompile(`(?:/private)?/(?:tmp|var/folders|var/tmp)/[^\s'"]*`), "<tmp>"},
		{regexp.MustCompile(`\b(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|secs?|seconds?|mins?|minutes?)\b`), "<duration>"},
		{regexp.MustCompile(`(?i)\bpid[:= ]\s*\d+`), "pid <n>"},
		// git reworded some of its messages over the years; a page written
		// with an older git shows the older words for the same state.
		{regexp.MustCompile(`^Initial commit$`), "No commits yet"},
		{regexp.MustCompile(`\bup-to-date with\b`), "up to date with"},
		// A memory address (`file (0x7fb1521ef5a0)`, `<object at 0x10a3f...>`)
		// moves from run to run.
		{regexp.MustCompile(`\b0x[0-9a-fA-F]{6,16}\b`), "<address>"},
		// Pages written on macOS show zsh's errors, which name the error
		// first ("zsh: permission denied: ./run.sh"); bash names the file
		// first ("bash: ./run.sh: Permission denied").
		{regexp.MustCompile(`^zsh: permission denied: (.+)$`), "bash: $1: Permission denied"},
		{regexp.MustCompile(`^zsh: command not found: (.+)$`), "bash: $1: command not found"},
		{regexp.MustCompile(`^zsh: no such file or directory: (.+)$`), "bash: $1: No such file or directory"},
		// A reader's terminal prints a shell's error as "bash: X" (or
		// "-bash: X" from a login shell); the shell SMILE runs each command
		// in says where in its script it failed, "bash: line 1: X"; pages
		// often leave the shell's name out ("X: command not found"). The
		// error is X, whichever shell's name leads it.
		{regexp.MustCompile(`^-?bash: (?:line \d+: )?`), ""},
	}
	hexRun = regexp.MustCompile(`\b[0-9a-f]{7,64}\b`)

	tolerantMasks = []struct {
		re   *regexp.Regexp
		mask string
	}{
		{regexp.MustCompile(`\b[\w.-]+@[\w.-]+`), "<user@host>"},
		{regexp.MustCompile(`(?:~|\.{1,2})?(?:/[\w.@+-]+)+/?`), "<path>"},
		{regexp.MustCompile(`\bv?\d+(?:[.,:]\d+)*\b`), "<n>"},
		{regexp.MustCompile(`\b[0-9a-f]*\d[0-9a-f]*\b`), "<n>"},
	}
	// ListingRow is a row `ls -l` prints (`drwxrwxrwt 10 root root 4096
	// ...`): a file's type and permissions, then its link count.
	ListingRow = regexp.MustCompile(`^[-dlcbps][rwxsStT-]{9}[.+@]?\s+\d+\s`)
)

// maskVolatile replaces the tokens of a line that change between runs.
func maskVolatile(line string) string {
	for _, m := range volatileMasks {
		line = m.re.ReplaceAllString(line, m.mask)
	}
	return hexRun.ReplaceAllStringFunc(line, func(h string) string {
		if strings.ContainsAny(h, "0123456789") && strings.ContainsAny(h, "abcdef") {
			return "<hash>"
		}
		return h
	})
}

// maskTolerant goes further, for output that is only an example.
func maskTolerant(line string) string {
	line = maskVolatile(line)
	for _, m := range tolerantMasks {
		line = m.re.ReplaceAllString(line, m.mask)
	}
	return strings.Join(strings.Fields(line), " ")
}

// MatchTolerant checks that every expected line appears somewhere in the
// output, in any order, after the tolerant masks.
func MatchTolerant(expected []Line, actual string) (missing Line, ok bool) {
	var act []string
	for _, l := range strings.Split(strings.ReplaceAll(actual, "\r\n", "\n"), "\n") {
		act = append(act, strings.TrimSpace(l))
	}
	for _, e := range trimBlankEnds(expected) {
		if isEllipsis(e.Text) || strings.TrimSpace(e.Text) == "" {
			continue
		}
		match := lineMatcher(maskTolerant(e.Text))
		found := false
		for _, a := range act {
			if match(maskTolerant(a)) || sameListedName(e.Text, a) {
				found = true
				break
			}
		}
		if !found {
			return e, false
		}
	}
	return Line{}, true
}

// sameListedName: an `ls -l` row and a bare name (either way round) list
// the same file.
func sameListedName(expected, actual string) bool {
	e, a := strings.TrimSpace(expected), strings.TrimSpace(actual)
	ef, af := strings.Fields(e), strings.Fields(a)
	if len(ef) == 0 || len(af) == 0 || ef[len(ef)-1] != af[len(af)-1] {
		return false
	}
	eLong, aLong := ListingRow.MatchString(e), ListingRow.MatchString(a)
	if eLong && aLong {
		// Two `ls -l` rows of one file: owner, group, size and date are the
		// reader's own; the permissions are what the tutorial shows.
		return ef[0] == af[0]
	}
	return eLong != aLong
}

// columns splits an `ls` line into its names: a terminal lays them out in
// columns (two or more spaces, or tabs, apart), a pipe one per line.
var columns = regexp.MustCompile(`\t+| {2,}`)

// SameListing: `ls` printed the names the tutorial shows, only laid out one
// per line (not a terminal) instead of in columns, or the other way round.
func SameListing(command string, expected []Line, actual string) bool {
	if !lsCommand.MatchString(strings.TrimSpace(textutil.FirstLine(command))) {
		return false
	}
	names := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			for _, n := range columns.Split(strings.TrimSpace(l), -1) {
				if n != "" {
					out = append(out, n)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	var exp []string
	for _, e := range trimBlankEnds(expected) {
		exp = append(exp, e.Text)
	}
	want, got := names(exp), names(strings.Split(actual, "\n"))
	if len(want) > 0 && slices.Equal(want, got) {
		return true
	}
	// A page may set the columns one space apart (`. ..  .git`): compare
	// word by word, which names with spaces in them do not survive.
	words := func(lines []string) []string {
		out := strings.Fields(strings.Join(lines, " "))
		slices.Sort(out)
		return out
	}
	want, got = words(exp), words(strings.Split(actual, "\n"))
	return len(want) > 0 && slices.Equal(want, got)
}

// ForeignListing: a listing of the folder the reader is in (`ls`, `ls -la`,
// `ls ~`) that shows four names or more, none of which the reader's folder
// holds: the author's own folder (a home with Documents and Music, a clone
// with its README), shown as an example of the form, not output a reader
// can match. A listing that shares a name with the reader's is compared.
func ForeignListing(command string, expected []Line, actual string) bool {
	c := strings.TrimSpace(textutil.FirstLine(command))
	if !ownFolderListing.MatchString(c) {
		return false
	}
	have := map[string]bool{}
	for _, l := range strings.Split(actual, "\n") {
		for _, n := range listedNames(l) {
			have[n] = true
		}
	}
	shown := 0
	for _, e := range expected {
		for _, n := range listedNames(e.Text) {
			if n == "." || n == ".." {
				continue
			}
			if have[n] {
				return false
			}
			shown++
		}
	}
	return shown >= 4
}

// ownFolderListing lists the folder the reader is in, or their home.
var ownFolderListing = regexp.MustCompile(`^ls(?:\s+-[A-Za-z1]+)*(?:\s+(?:\.|~|~/|\$HOME))?$`)

// listedNames are the names a line of `ls` output shows: the last field of
// an `ls -l` row, else each column; none for a "total" line.
func listedNames(line string) []string {
	t := strings.TrimSpace(line)
	switch {
	case t == "" || totalLine.MatchString(t):
		return nil
	case ListingRow.MatchString(t):
		f := strings.Fields(t)
		return f[len(f)-1:]
	}
	var out []string
	for _, n := range columns.Split(t, -1) {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, strings.TrimSuffix(n, "/"))
		}
	}
	return out
}

// totalLine is the first line of `ls -l`, in the reader's language.
var totalLine = regexp.MustCompile(`^(?:total|totale|insgesamt|итого|合計|总用量|합계)\s+\S+$`)

// lsCommand is a plain listing: `ls`, `ls -F`, `ls -a ../project`.
var lsCommand = regexp.MustCompile(`^ls(?:\s+-[A-Za-z1]+)*(?:\s+[\w./~-]+)*$`)

// ReaderSpecificCommand prints what is the reader's own, never the page's:
// where they are, who they are, their machine, the time.
var ReaderSpecificCommand = regexp.MustCompile(`^(?:pwd|whoami|hostname|id|uname|date|echo\s+["']?(?:\$HOME|~|\$USER|\$PWD|\$PATH))\b`)

// SameFolderListed: two plain listings (`ls`, `ls -F`) of the same folders,
// whatever their options.
func SameFolderListed(a, b string) bool {
	a, b = strings.TrimSpace(textutil.FirstLine(a)), strings.TrimSpace(textutil.FirstLine(b))
	if !lsCommand.MatchString(a) || !lsCommand.MatchString(b) {
		return false
	}
	operands := func(c string) []string {
		var out []string
		for _, f := range strings.Fields(c)[1:] {
			if !strings.HasPrefix(f, "-") {
				out = append(out, f)
			}
		}
		return out
	}
	return slices.Equal(operands(a), operands(b))
}

// helpCommand asks a program for its help text: `ls --help`, `git commit -h`,
// `help cd`.
var helpCommand = regexp.MustCompile(`^(?:[\w.+-]+(?:\s+[\w.+-]+)?\s+(?:--help|-h)|help\s+[\w.-]+)$`)

// SameHelp: a help text that starts as the one shown and holds at least half
// of its lines is the same program's help, worded by another version: the
// tutorial quotes the version its author had.
func SameHelp(command string, expected []Line, actual string) bool {
	if !helpCommand.MatchString(strings.TrimSpace(textutil.FirstLine(command))) {
		return false
	}
	act := map[string]bool{}
	for _, l := range strings.Split(actual, "\n") {
		act[maskTolerant(l)] = true
	}
	first, total, found := "", 0, 0
	for _, e := range trimBlankEnds(expected) {
		t := maskTolerant(e.Text)
		if t == "" || isEllipsis(e.Text) {
			continue
		}
		if first == "" {
			first = t
		}
		total++
		if act[t] {
			found++
		}
	}
	return total > 0 && act[first] && found*2 >= total
}

// ListsFolder: a plain listing of the current folder or of named folders
// (`ls`, `ls -F data`), whose output is the names the folder holds.
func ListsFolder(command string) bool {
	return lsCommand.MatchString(strings.TrimSpace(command))
}

// A REPL greets a person at a terminal with a banner (its version, where to
// find help); fed a page's input through a pipe it prints none. A banner
// shown on the page is the author's terminal, never output to compare.
var banner = regexp.MustCompile(`^\s*(?:Welcome to Node\.js v[\d.]+\.?|Type "\.help" for more information\.|` +
	`Python \d+\.\d+\.\d+\S* \(.*\)(?: \[.*\])?(?: on \w+)?|\[(?:GCC|Clang|MSC) [^\]]*\] on \w+|Type "help", "copyright", "credits" or "license" for more information\.|` +
	`SQLite version \d[\d.]* \d{4}-\d\d-\d\d.*|Enter "\.help" for usage hints\.|Connected to a transient in-memory database\.|` +
	`Use "\.open FILENAME" to reopen on a persistent database\.|psql \(\d[\d.]*\)|Type "help" for help\.|` +
	`Lua \d\.\d\.\d+\s+Copyright \(C\).*|Interactive Elixir \(\d.*|Erlang/OTP \d+.*|GHCi, version \d.*|` +
	`R version \d[\d.]* \(.*\).*|Welcome to Scala \d.*|irb \d[\d.]* \(.*\).*)\s*$`)

// WithoutBanners is the output shown without the lines of a REPL's banner.
func WithoutBanners(lines []Line) []Line {
	var out []Line
	for _, l := range lines {
		if !banner.MatchString(l.Text) {
			out = append(out, l)
		}
	}
	return out
}
