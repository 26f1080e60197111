package spec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

// E04: a missing tutorial is a "not found" error callers can test for.
func TestLoadTutorialNotFound(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tutorial.md")
	tut, err := LoadTutorial(p)
	if tut != nil {
		t.Errorf("LoadTutorial(missing) = %+v, want nil", tut)
	}
	if !errors.Is(err, ErrTutorialNotFound) {
		t.Fatalf("LoadTutorial(missing) error = %v, want errors.Is ErrTutorialNotFound", err)
	}
	if want := "tutorial not found: " + p; err.Error() != want {
		t.Errorf("LoadTutorial(missing) error = %q, want %q", err, want)
	}
	if !strings.Contains(err.Error(), "not found") {
		t.Errorf("LoadTutorial(missing) error %q does not say \"not found\"", err)
	}
}

// E04 with a page of the folder close to the name: the error says which.
func TestLoadTutorialNotFoundSuggestsAPage(t *testing.T) {
	tests := []struct {
		name  string
		pages []string
		want  string
	}{
		{"a typo", []string{"tutorial.md", "notes.txt"}, " (did you mean tutorial.md?)"},
		{"another extension", []string{"tutorial.markdown"}, " (did you mean tutorial.markdown?)"},
		{"no page close", []string{"install.md", "usage.md"}, " (the folder's Markdown pages: install.md, usage.md)"},
		{"many pages", []string{"a1.md", "b2.md", "c3.md", "d4.md", "e5.md", "f6.md"}, " (the folder has 6 Markdown pages, such as a1.md, b2.md, c3.md)"},
		{"no page", []string{"notes.txt"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, p := range tt.pages {
				if err := os.WriteFile(filepath.Join(dir, p), []byte("# x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p := filepath.Join(dir, "tutoral.md")
			_, err := LoadTutorial(p)
			if !errors.Is(err, ErrTutorialNotFound) {
				t.Fatalf("error = %v, want ErrTutorialNotFound", err)
			}
			if want := "tutorial not found: " + p + tt.want; err.Error() != want {
				t.Errorf("error = %q, want %q", err, want)
			}
		})
	}
}

func TestLoadTutorialDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := LoadTutorial(dir)
	if want := "load tutorial " + dir + ": is a directory, not a Markdown file"; err == nil || err.Error() != want {
		t.Errorf("LoadTutorial(folder) error = %v, want %q", err, want)
	}
}

// E05: the limit is 100 KB = 102,400 bytes, inclusive.
func TestLoadTutorialSizeLimit(t *testing.T) {
	tests := []struct {
		name    string
		size    int
		wantErr bool
	}{
		{"empty", 0, false},
		{"one byte under", MaxTutorialBytes - 1, false},
		{"exactly 102400 bytes", 102400, false},
		{"102401 bytes", 102401, true},
		{"one megabyte", 1 << 20, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := sizedTutorial(tt.size)
			p := writeFile(t, t.TempDir(), "tutorial.md", content)
			tut, err := LoadTutorial(p)
			if !tt.wantErr {
				if err != nil {
					t.Fatalf("LoadTutorial(%d bytes) error = %v", tt.size, err)
				}
				if len(tut.Content) != tt.size || tut.Content != content {
					t.Errorf("LoadTutorial(%d bytes) content has %d bytes, want the file unchanged", tt.size, len(tut.Content))
				}
				return
			}
			if tut != nil {
				t.Errorf("LoadTutorial(%d bytes) = %p, want nil", tt.size, tut)
			}
			if err == nil || err.Error() != "Tutorial exceeds size limit (100KB)" {
				t.Errorf("LoadTutorial(%d bytes) error = %v, want exactly %q", tt.size, err, "Tutorial exceeds size limit (100KB)")
			}
			if !errors.Is(err, ErrTutorialTooLarge) {
				t.Errorf("LoadTutorial(%d bytes) error is not ErrTutorialTooLarge", tt.size)
			}
		})
	}
	if MaxTutorialBytes != 102400 {
		t.Errorf("MaxTutorialBytes = %d, want 102400", MaxTutorialBytes)
	}
}

// sizedTutorial is valid Markdown of exactly n bytes.
func sizedTutorial(n int) string {
	var b strings.Builder
	line := "Run `make` and read the output carefully before going on.\n"
	for b.Len()+len(line) <= n {
		b.WriteString(line)
	}
	b.WriteString(strings.Repeat("x", n-b.Len()))
	return b.String()
}

// E06: a tutorial that is not UTF-8 fails with the line and column (in
// characters) of the first bad byte.
func TestLoadTutorialEncoding(t *testing.T) {
	tests := []struct {
		name     string
		content  []byte
		line     int
		col      int
		loadable bool
	}{
		{name: "Latin-1 é", content: []byte("# Café\n\nCaf\xe9 au lait\n"), line: 3, col: 4},
		{name: "UTF-16 with byte-order mark", content: []byte("\xff\xfe#\x00 \x00T\x00"), line: 1, col: 1},
		{name: "after multi-byte characters", content: []byte("ça va — ok \x80\n"), line: 1, col: 12},
		{name: "truncated sequence at the end", content: []byte("line one\nline two \xe2\x82"), line: 2, col: 10},
		{name: "overlong encoding", content: []byte("a\n\nb\xc0\xaf"), line: 3, col: 2},
		{name: "surrogate half", content: []byte("\xed\xa0\x80"), line: 1, col: 1},
		{name: "Windows-1252 quote in CRLF file", content: []byte("one\r\ntwo\r\n\x93three\x94\r\n"), line: 3, col: 1},
		{name: "valid UTF-8 with a replacement character", content: []byte("keep \xef\xbf\xbd as is\n"), loadable: true},
		{name: "valid UTF-8 with a byte-order mark", content: []byte("\xef\xbb\xbf# Title\n"), loadable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "tutorial.md", string(tt.content))
			tut, err := LoadTutorial(p)
			if tt.loadable {
				if err != nil {
					t.Fatalf("LoadTutorial error = %v", err)
				}
				if tut.Content != string(tt.content) {
					t.Errorf("Content = %q, want the file unchanged", tut.Content)
				}
				return
			}
			if !errors.Is(err, ErrTutorialEncoding) {
				t.Fatalf("LoadTutorial error = %v, want errors.Is ErrTutorialEncoding", err)
			}
			want := "tutorial is not valid UTF-8: " + p + ":" + itoa(tt.line) + ":" + itoa(tt.col) + " (only UTF-8 tutorials are supported)"
			if err.Error() != want {
				t.Errorf("LoadTutorial error =\n  %q\nwant\n  %q", err, want)
			}
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// Raw Markdown reaches the Student unchanged; blocks come with it.
func TestLoadTutorialContent(t *testing.T) {
	content := "# Hello\r\n\r\n```sh\r\necho hi\r\n```\r\n"
	p := writeFile(t, t.TempDir(), "tutorial.md", content)
	tut, err := LoadTutorial(p)
	if err != nil {
		t.Fatal(err)
	}
	if tut.Path != p {
		t.Errorf("Path = %q, want %q", tut.Path, p)
	}
	if tut.Content != content {
		t.Errorf("Content = %q, want %q (no preprocessing)", tut.Content, content)
	}
	want := []markdown.Block{
		{Kind: markdown.BlockHeading, Line: 1, EndLine: 1, Text: "Hello", Level: 1},
		{Kind: markdown.BlockCode, Line: 3, EndLine: 5, Text: "echo hi\n", Info: "sh", Lang: "sh", Fenced: true, Code: []markdown.CodeLine{{Line: 4, Text: "echo hi"}}},
	}
	if !reflect.DeepEqual(tut.Blocks, want) {
		t.Errorf("Blocks =\n  %+v\nwant\n  %+v", tut.Blocks, want)
	}
	if len(tut.Images) != 0 {
		t.Errorf("Images = %+v, want none", tut.Images)
	}
}

// imageFixture lays out a tutorial in docs/ with images around it, and a
// decoy folder to run from, holding images of the same names.
type imageFixture struct {
	root, docs, tutorial string
	bytes                map[string][]byte // by path relative to docs
}

func newImageFixture(t *testing.T, markdown string) imageFixture {
	t.Helper()
	root := t.TempDir()
	f := imageFixture{root: root, docs: filepath.Join(root, "docs"), bytes: map[string][]byte{}}
	files := []string{
		"img/shot.png", "img/photo.jpg", "img/photo.jpeg", "img/PHOTO.JPG", "img/anim.gif", "img/diagram.svg",
		"img/pic.webp", "img/my shot.png", "img/a_b.png", "img/x&y.png", "img/100%.png", "inline.png",
		"html/block.svg", "html/inline.gif", "html/unquoted.png", "../shared/logo.png",
	}
	for i, name := range files {
		data := []byte{0x89, 'P', 'N', 'G', byte(i), byte(len(name))}
		data = append(data, name...)
		writeFile(t, f.docs, name, string(data))
		f.bytes[name] = data
	}
	f.tutorial = writeFile(t, f.docs, "tutorial.md", markdown)
	// Same names relative to the working directory, with other bytes: they
	// must never be picked.
	cwd := filepath.Join(root, "elsewhere", "cwd") // decoy ../shared stays outside root/shared
	for _, name := range files {
		writeFile(t, cwd, name, "decoy")
	}
	t.Chdir(cwd)
	return f
}

func TestLoadTutorialImages(t *testing.T) {
	md := strings.Join([]string{
		"# Images", // 1
		"",         // 2
		"![PNG](img/shot.png) and ![JPG](img/photo.jpg)", // 3
		"![JPEG](./img/photo.jpeg \"a title\")",          // 4
		"![upper](img/PHOTO.JPG)",                        // 5
		"",                                               // 6
		"- step with ![gif](img/anim.gif)",               // 7
		"- step with",                                    // 8
		"  ![svg](img/diagram.svg)",                      // 9
		"",                                               // 10
		"1. ![webp](img/pic.webp)",                       // 11
		"",                                               // 12
		"![missing](img/nope.png)",                       // 13
		"![remote](https://example.com/a.png) ![plain](http://example.com/b.png) ![inline](data:image/png;base64,AAAA) ![cdn](//cdn.example.com/c.png)", // 14
		"![query](img/shot.png?raw=true) ![fragment](img/diagram.svg#layer1)",                                                                           // 15
		"![percent](img/my%20shot.png) ![angle](<img/my shot.png>) ![escaped](img/a\\_b.png) ![entity](img/x&amp;y.png) ![literal](img/100%.png)",       // 16
		"![parent](../shared/logo.png)", // 17
		"",                              // 18
		"<p align=\"center\">",          // 19
		"  <img alt=\"logo\" src=\"html/block.svg\" data-src=\"lazy.png\" width=\"200\">", // 20
		"</p>", // 21
		"",     // 22
		"Inline <img src='html/inline.gif'> and <IMG SRC=html/unquoted.png> and <img src=\"https://example.com/x.png\">", // 23
		"", // 24
		"![ref][shot] [![badge](inline.png)](https://ci.example.com)", // 25
		"",                            // 26
		"[shot]: img/shot.png",        // 27
		"",                            // 28
		"```md",                       // 29
		"![in code](img/nope2.png)",   // 30
		"<img src=\"img/nope3.png\">", // 31
		"```",                         // 32
		"`![in span](img/nope4.png)`", // 33
	}, "\n") + "\n"
	f := newImageFixture(t, md)
	// The project holds docs/ and shared/: ../shared is inside it.
	if err := os.Mkdir(filepath.Join(filepath.Dir(filepath.Dir(f.tutorial)), ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	tut, err := LoadTutorial(f.tutorial)
	if err != nil {
		t.Fatalf("LoadTutorial error = %v", err)
	}
	type want struct {
		ref     string
		file    string // relative to docs
		line    int
		format  ImageFormat
		missing bool
	}
	wants := []want{
		{"img/shot.png", "img/shot.png", 3, ImagePNG, false},
		{"img/photo.jpg", "img/photo.jpg", 3, ImageJPG, false},
		{"./img/photo.jpeg", "img/photo.jpeg", 4, ImageJPG, false},
		{"img/PHOTO.JPG", "img/PHOTO.JPG", 5, ImageJPG, false},
		{"img/anim.gif", "img/anim.gif", 7, ImageGIF, false},
		{"img/diagram.svg", "img/diagram.svg", 9, ImageSVG, false},
		{"img/pic.webp", "img/pic.webp", 11, "", false},
		{"img/nope.png", "img/nope.png", 13, ImagePNG, true},
		{"img/shot.png?raw=true", "img/shot.png", 15, ImagePNG, false},
		{"img/diagram.svg#layer1", "img/diagram.svg", 15, ImageSVG, false},
		{"img/my%20shot.png", "img/my shot.png", 16, ImagePNG, false},
		{"img/my shot.png", "img/my shot.png", 16, ImagePNG, false},
		{"img/a\\_b.png", "img/a_b.png", 16, ImagePNG, false},
		{"img/x&amp;y.png", "img/x&y.png", 16, ImagePNG, false},
		{"img/100%.png", "img/100%.png", 16, ImagePNG, false},
		{"../shared/logo.png", "../shared/logo.png", 17, ImagePNG, false},
		{"html/block.svg", "html/block.svg", 20, ImageSVG, false},
		{"html/inline.gif", "html/inline.gif", 23, ImageGIF, false},
		{"html/unquoted.png", "html/unquoted.png", 23, ImagePNG, false},
		{"img/shot.png", "img/shot.png", 25, ImagePNG, false},
		{"inline.png", "inline.png", 25, ImagePNG, false},
	}
	if len(tut.Images) != len(wants) {
		for _, img := range tut.Images {
			t.Logf("got image %q line %d", img.Reference, img.Line)
		}
		t.Fatalf("got %d images, want %d", len(tut.Images), len(wants))
	}
	for i, w := range wants {
		t.Run(w.ref, func(t *testing.T) {
			img := tut.Images[i]
			wantPath := filepath.Join(f.docs, filepath.FromSlash(w.file))
			if img.Reference != w.ref || img.Path != wantPath || img.Line != w.line || img.Format != w.format || img.Missing != w.missing {
				t.Errorf("image %d =\n  {Reference:%q Path:%q Line:%d Format:%q Missing:%v}\nwant\n  {Reference:%q Path:%q Line:%d Format:%q Missing:%v}",
					i, img.Reference, img.Path, img.Line, img.Format, img.Missing, w.ref, wantPath, w.line, w.format, w.missing)
			}
			wantData := f.bytes[w.file]
			if w.missing {
				wantData = nil
			}
			if !bytes.Equal(img.Data, wantData) {
				t.Errorf("image %d Data = %q, want %q", i, img.Data, wantData)
			}
		})
	}
}

// The tutorial's folder, not the working directory, anchors a relative
// tutorial path's images too.
func TestLoadTutorialRelativePath(t *testing.T) {
	f := newImageFixture(t, "![s](img/shot.png)\n")
	t.Chdir(f.root)
	tut, err := LoadTutorial(filepath.Join("docs", "tutorial.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tut.Images) != 1 {
		t.Fatalf("Images = %+v, want one", tut.Images)
	}
	img := tut.Images[0]
	if want := filepath.Join("docs", "img", "shot.png"); img.Path != want || img.Missing || !bytes.Equal(img.Data, f.bytes["img/shot.png"]) {
		t.Errorf("image = {Path:%q Missing:%v Data:%q}, want {Path:%q Missing:false Data:%q}", img.Path, img.Missing, img.Data, want, f.bytes["img/shot.png"])
	}
}

// E07 is the Student's call: a missing image is reported, not an error, and
// so is a reference to a folder.
func TestLoadTutorialMissingImagesAreNotErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "img/keep.txt", "")
	p := writeFile(t, dir, "tutorial.md", "Intro\n\n![gone](gone.png)\n\n![folder](img)\n")
	tut, err := LoadTutorial(p)
	if err != nil {
		t.Fatalf("LoadTutorial error = %v", err)
	}
	want := []Image{
		{Reference: "gone.png", Path: filepath.Join(dir, "gone.png"), Line: 3, Format: ImagePNG, Missing: true},
		{Reference: "img", Path: filepath.Join(dir, "img"), Line: 5, Missing: true},
	}
	if !reflect.DeepEqual(tut.Images, want) {
		t.Errorf("Images =\n  %+v\nwant\n  %+v", tut.Images, want)
	}
}

func TestLineText(t *testing.T) {
	content := "one\r\ntwo\n\nfour"
	tests := []struct {
		line int
		want string
	}{
		{-1, ""}, {0, ""}, {1, "one"}, {2, "two"}, {3, ""}, {4, "four"}, {5, ""},
	}
	tut := &Tutorial{Content: content}
	for _, tt := range tests {
		if got := tut.LineText(tt.line); got != tt.want {
			t.Errorf("LineText(%d) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestLoadTutorialUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	p := writeFile(t, t.TempDir(), "tutorial.md", "# x\n")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	_, err := LoadTutorial(p)
	if err == nil || !strings.HasPrefix(err.Error(), "load tutorial "+p+": ") {
		t.Errorf("LoadTutorial(unreadable) error = %v, want it to name the file", err)
	}
}

// A page that nests lists deeper than any tutorial does (49,000 markers on
// one line took seconds to parse) is refused at once, naming its line; a
// page at the limit loads.
func TestLoadTutorialRefusesDeepNesting(t *testing.T) {
	dir := t.TempDir()
	deep := writeFile(t, dir, "deep.md", "# Deep\n\n"+strings.Repeat("- ", 49000)+"x\n")
	_, err := LoadTutorial(deep)
	if !errors.Is(err, ErrTutorialNesting) || !strings.Contains(err.Error(), deep+":3 opens 49000 nested") {
		t.Fatalf("LoadTutorial = %v, want ErrTutorialNesting naming line 3", err)
	}
	ok := writeFile(t, dir, "ok.md", "# Fine\n\n"+strings.Repeat("- ", markdown.MaxNesting)+"x\n")
	if _, err := LoadTutorial(ok); err != nil {
		t.Errorf("a page nested %d deep: %v", markdown.MaxNesting, err)
	}
}
