// Package destination reads where a page says a code block goes: a file
// named in the prose before or after it ("save this as `app.py`"), in a
// caption ("Filename: src/main.rs"), in the block's info string (```python
// title="app.py"```) or in the HTML around it (<Listing file-name="...">).
// It reads text only; which of them decides is package reading's.
package destination

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/codelang"
)

// Destination is a file a code block is to be written to.
type Destination struct {
	Path   string
	Append bool
}

// FileToken matches a file name in prose: in backticks, or bare when it has
// an extension or a path, or is a well-known extensionless file.
const FileToken = "(`[^`\\s]+`|\\*\\*[^*\\s]+\\*\\*|\\*[^*\\s]+\\*|_[^_\\s]+_|[\\w.~-]*/[\\w./~-]+|[\\w~][\\w./~-]*\\.[A-Za-z0-9]+|" +
	"Dockerfile|Makefile|Containerfile|Procfile|Gemfile|Rakefile|Vagrantfile|Jenkinsfile|Caddyfile|Brewfile|Justfile)"

// filler is the short run of words allowed between a verb and its file.
const filler = `(?:[^.:!?\n]{0,60}?\s)?`

const fileIntro = `(?:(?:a|an|the)\s+)?(?:new\s+)?(?:empty\s+)?(?:file|script)\s+(?:(?:named|called)\s+)?`

var destinationPatterns = []struct {
	re     *regexp.Regexp
	append bool
}{
	// "Add the following to `config.yaml`", "Append this line to ~/.bashrc"
	{regexp.MustCompile(`(?i)\b(?:add|append)\b` + filler + `(?:to|into)\s+(?:the\s+end\s+of\s+)?(?:(?:the|your)\s+)?(?:file\s+)?` + FileToken), true},
	// "In `config.yaml`, add:" (append) / "In `src/main.go`, write:"
	{regexp.MustCompile(`(?i)\bin\s+(?:(?:the|your)\s+)?(?:file\s+)?` + FileToken + `\s*(?:file\s*)?,?\s*(?:add|append)\b`), true},
	{regexp.MustCompile(`(?i)\bin\s+(?:(?:the|your)\s+)?(?:file\s+)?` + FileToken + `\s*(?:file\s*)?,?\s*(?:write|put|paste|type|enter|insert|place)\b`), false},
	// "Into main.go, [below the imports,] paste/copy": Go's tutorials build a file a piece at a time so
	// (the package line, then each declaration beneath it): append, which creates a missing file.
	// Verb first, "paste the following into FILE" (below) shows the whole file: it replaces.
	{regexp.MustCompile(`(?i)\binto\s+(?:(?:the|your)\s+)?(?:file\s+)?` + FileToken + `(?:\s+file)?\s*,(?:[^.:!?\n,]{1,60},)?\s*(?:paste|copy)\b`), true},
	// "Create a file named `app.py`", "Make a new file called hello.sh",
	// "Open a new file called x", "create a new file in the project root named `app.py`"
	{regexp.MustCompile(`(?i)\b(?:create|make|add|write|save)\s+` + fileIntro + `:?\s*` + FileToken), false},
	{regexp.MustCompile(`(?i)\bopen\s+(?:a\s+)?new\s+(?:file|script)\s+(?:(?:named|called)\s+)?` + FileToken), false},
	{regexp.MustCompile(`(?i)\b(?:create|make|add|write|save|open)\b[^.:!?\n]{0,40}?\b(?:file|script)\b[^.:!?\n]{0,40}?\b(?:named|called)\s+` + FileToken), false},
	// "Create `settings.conf` with:", "Create the following `compose.yaml`",
	// "Create an `index.html` file"
	{regexp.MustCompile(`(?i)\bcreate\s+(?:(?:a|an|the)\s+)?(?:following\s+)?(?:new\s+)?` + FileToken), false},
	// "Save the following as `list.txt`", "Save it to app.py"
	{regexp.MustCompile(`(?i)\bsave\b` + filler + `(?:as|to|in|into)\s+(?:(?:a|the)\s+(?:new\s+)?file\s+(?:(?:named|called)\s+)?)?` + FileToken), false},
	// "Write this to `notes.md`"
	{regexp.MustCompile(`(?i)\bwrite\b` + filler + `(?:to|into|in)\s+(?:(?:a|the)\s+(?:new\s+)?file\s+(?:(?:named|called)\s+)?)?` + FileToken), false},
	// "Put this in a file called hello.sh", "Paste the following into `app.js`"
	{regexp.MustCompile(`(?i)\b(?:put|paste|place|copy)\b` + filler + `(?:in|into|to)\s+(?:(?:a|an|the|your)\s+(?:new\s+)?(?:file\s+)?(?:(?:named|called)\s+)?)?` + FileToken), false},
	// "Edit `app.py` and add", "Open `settings.toml` and append"
	{regexp.MustCompile(`(?i)\b(?:edit|open|update|modify|change)\s+(?:(?:the|your)\s+)?(?:file\s+)?` + FileToken +
		`(?:\s+file)?[^.:!?\n]{0,40}?\b(?:and|then|to)\s+(?:add|append|insert)\b`), true},
	// "Open `app.py` and replace its contents", "Update `app.py` with:"
	{regexp.MustCompile(`(?i)\b(?:edit|open|update|modify|change)\s+(?:(?:the|your)\s+)?(?:file\s+)?` + FileToken +
		`(?:\s+file)?[^.:!?\n]{0,40}?\b(?:and\s+(?:replace|make\s+it|change|update|set|write|paste|put)|so\s+(?:it|that)|to\s+(?:look|read|contain|match))\b`), false},
	{regexp.MustCompile(`(?i)\b(?:edit|update|modify|change)\s+(?:(?:the|your)\s+)?(?:file\s+)?` + FileToken + `(?:\s+file)?\s+(?:with|to|as\s+follows|so)\b`), false},
	// A list item: "a file called `Makefile`", "the file named app.py"
	{regexp.MustCompile(`(?i)\b(?:a|an|the)\s+(?:new\s+)?(?:empty\s+)?file\s+(?:named|called)\s+` + FileToken), false},
	// "The file name is Makefile", "文件名为 Makefile", "Nom du fichier : app.py":
	// the page says outright what the file is called.
	{regexp.MustCompile(`(?i)(?:\bfile\s*name\s+(?:is|will\s+be|should\s+be)|\bnom\s+du\s+fichier\s*(?:est|:)|\bnombre\s+del\s+archivo\s*(?:es|:)|\bnome\s+do\s+arquivo\s*(?:é|e|:)|` +
		`\bdateiname\s*(?:ist|:)|имя\s+файла\s*(?:—|-|:)?|文件名(?:为|是|叫|：|:)|文件名稱(?:為|是|：)|ファイル名(?:は|を|：|:)|파일\s*(?:이름|명)(?:은|는|:))\s*` + FileToken), false},
	// "Aggiungiamo le seguenti righe nel file ~/.ssh/config", "Ajoutez ceci au
	// fichier .bashrc", "Füge Folgendes zur Datei config hinzu": add to a file,
	// in the languages pages are written in.
	{regexp.MustCompile(`(?i)(?:\b(?:aggiung\w*|ajout\w*|añad\w*|agreg\w*|adicion\w*|füge|fügen|dodaj\w*|voeg)|добав\w*)` + filler +
		`(?:nel|nella|al|alla|in|dans|au|à|en|ao|no|na|zur|zum|do|w|в|aan|to)\s+(?:(?:il|le|la|el|o|a|die|den|das|the)\s+)?` +
		`(?:file|fichier|archivo|arquivo|datei|plik|файл|bestand)?\s*` + FileToken), true},
	// "Replace the contents of `app.py` with"
	{regexp.MustCompile(`(?i)\b(?:replace|overwrite)\s+(?:the\s+)?(?:contents?\s+of\s+)?(?:(?:the|your)\s+)?(?:file\s+)?` + FileToken + `\s+with\b`), false},
}

// InProse finds the file the prose before a code block tells the
// reader to create, save, write or add to. When several match, the one
// closest to the block wins (on a tie, the first pattern).
func InProse(prose string) (Destination, bool) {
	prose = strings.Join(strings.Fields(prose), " ")
	best, bestAt := Destination{}, -1
	for _, p := range destinationPatterns {
		for _, m := range p.re.FindAllStringSubmatchIndex(prose, -1) {
			name := CleanFileName(prose[m[2]:m[3]])
			if name == "" || m[2] <= bestAt {
				continue
			}
			best, bestAt = Destination{Path: name, Append: p.append}, m[2]
		}
	}
	return best, bestAt >= 0
}

// CleanFileName strips backticks and trailing punctuation, and refuses what
// is not a plausible file name (a command line, a URL, a flag).
func CleanFileName(s string) string {
	// *app.py* or _app.py_; not __init__.py, whose underscores are its name.
	emphasized := len(s) > 2 && (s[0] == '*' || s[0] == '_') && s[len(s)-1] == s[0]
	s = strings.Trim(s, "`")
	if emphasized {
		s = strings.Trim(s, "*_")
		if !codelang.IsFileName(s) && !WellKnown(s) {
			return "" // *new*, _really_: emphasis, not a file
		}
	}
	s = strings.TrimRight(s, ".,;:!?)'\"")
	if s == "" || strings.ContainsAny(s, " \t$|&<>*\"'") || strings.Contains(s, "://") || strings.HasPrefix(s, "-") || productName.MatchString(s) {
		return ""
	}
	return s
}

// productName is a JavaScript project's name, which reads like a file name
// ("Node.js", "Vue.js", "Express.js") but names the product.
var productName = regexp.MustCompile(`^(?:(?:Node|Vue|Next|Nuxt|Express|React|Three|D3|Chart|Ember|Backbone|Angular|Meteor|Alpine|Moment|Knockout|Handlebars|Leaflet|Phaser|Babylon|Preact|Nest|Gatsby|Electron|Koa|Sails|Hapi)\.js|node\.js|Node\.JS|NodeJS)$`)

var infoAttr = regexp.MustCompile(`(?i)\b(title|filename|file|name|path)\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s}"']+))`)

// InInfo finds a file named by a code block's info string:
// ```python title="app.py"```, ```app.py```, ```python:app.py```,
// ```{.python file=app.py}```, ```yaml filename=config.yaml```.
func InInfo(info string) (Destination, bool) {
	if m := infoAttr.FindStringSubmatch(info); m != nil {
		// A title is a file only when it reads as one: ```shell
		// title="Terminal"``` is a caption.
		name := CleanFileName(m[2] + m[3] + m[4])
		if name != "" && (!strings.EqualFold(m[1], "title") || codelang.IsFileName(name) || WellKnown(name)) {
			return Destination{Path: name}, true
		}
	}
	fields := strings.Fields(info)
	if len(fields) == 0 {
		return Destination{}, false
	}
	first := strings.TrimPrefix(strings.TrimSuffix(fields[0], "}"), "{")
	first = strings.TrimPrefix(first, ".")
	if lang, file, ok := strings.Cut(first, ":"); ok && lang != "" && codelang.IsFileName(file) {
		return Destination{Path: file}, true
	}
	if strings.HasPrefix(fields[0], "{") {
		return Destination{}, false // {.python} is a class, not a file
	}
	if codelang.IsFileName(first) {
		return Destination{Path: first}, true
	}
	return Destination{}, false
}

var wellKnownFiles = textutil.Set("dockerfile", "makefile", "gnumakefile", "containerfile", "procfile", "gemfile", "rakefile",
	"vagrantfile", "jenkinsfile", "caddyfile", "brewfile", "justfile", "license", "readme", ".env", ".gitignore")

// WellKnown reports whether name is a file known without an extension
// (Dockerfile, Makefile, .env).
func WellKnown(name string) bool { return wellKnownFiles[strings.ToLower(name)] }

var (
	inlineTag = regexp.MustCompile(`<[^>]+>`)
	// "Filename: src/main.rs", "File: app.py", "Listing 2-1: src/lib.rs"
	captionLabel = regexp.MustCompile(`(?i)^(?:file(?:\s*name)?|path|listing(?:\s+[\d.-]+)?)\s*:\s*(` + FileToken[1:len(FileToken)-1] + `)$`)
	// "In the `test/test.bats`", "Dans `app.py` :", "Im `Makefile`": a
	// caption that says where the lines go.
	captionIn    = regexp.MustCompile(`(?i)^(?:in|inside|into|dans|en|em|no|na|nel|nella|im|in der|в|у)\s+(?:(?:the|le|la|el|o|a|il|der|die|das)\s+)?(?:file\s+|fichier\s+|archivo\s+|arquivo\s+|datei\s+|файле?\s+)?(` + FileToken[1:len(FileToken)-1] + `)$`)
	captionAlone = regexp.MustCompile(`^(` + FileToken[1:len(FileToken)-1] + `)$`)
	htmlFileAttr = regexp.MustCompile(`(?i)\b(?:file-?name|data-filename|file|title|name|path)\s*=\s*["']([^"']+)["']`)
)

// InCaption reads a paragraph that only names a file, as captions
// above or below a listing do: "`app.py`", "**hello.go**", "_makefile_",
// "Filename: src/main.rs", "In `app.py`:" (inline HTML such as a <span>
// around it ignored).
func InCaption(paragraph string) (Destination, bool) {
	t := strings.TrimSpace(inlineTag.ReplaceAllString(paragraph, ""))
	t = strings.TrimSpace(strings.TrimSuffix(t, ":"))
	for _, re := range []*regexp.Regexp{captionLabel, captionAlone, captionIn} {
		if m := re.FindStringSubmatch(t); m != nil {
			name := CleanFileName(m[1])
			if name != "" && (codelang.IsFileName(name) || WellKnown(name) || strings.HasPrefix(m[1], "`") && re == captionLabel) {
				return Destination{Path: name}, true
			}
		}
	}
	return Destination{}, false
}

// InHTML reads an HTML wrapper around a block that names its file:
// <Listing file-name="src/main.rs">, <div data-filename="app.py">.
func InHTML(html string) (Destination, bool) {
	t := strings.TrimSpace(html)
	if t == "" || strings.HasPrefix(t, "</") || strings.HasPrefix(t, "<!--") {
		return Destination{}, false
	}
	if m := htmlFileAttr.FindStringSubmatch(t); m != nil {
		if name := CleanFileName(m[1]); name != "" && (codelang.IsFileName(name) || WellKnown(name)) {
			return Destination{Path: name}, true
		}
	}
	return Destination{}, false
}

// contentWord says the sentence shows a file's content, in the languages
// pages are written in: "its content could look like this", "le contenu
// du fichier", "el contenido", "der Inhalt", "содержимое", "内容".
var contentWord = regexp.MustCompile(`(?i)\bcontents?\b|\bcontenu\b|\bcontenido\b|\bconte(?:ú|u)do\b|\bcontenuto\b|\binhalt\b|\bzawarto(?:ś|s)(?:ć|c)\b|\bi(?:ç|c)eri(?:ğ|g)i\b|содержимое|вміст|内容|中身|내용`)

// SupposedContent is the file a section supposes the reader has (its
// name, "" when none), when the sentence before a block says the block is
// a file's content: the page shows what the supposed file holds, so a
// reader makes it from the block.
func SupposedContent(supposed, before string) (Destination, bool) {
	if supposed == "" || !contentWord.MatchString(before) || len(FilesNamed(before, func(string) bool { return true })) > 0 {
		return Destination{}, false
	}
	return Destination{Path: supposed}, true
}
