package spec

import (
	"errors"
	"fmt"
	"github.com/smile-loop/smile/spec/markdown"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// MaxTutorialBytes is the seed's size limit: 100 KB.
const MaxTutorialBytes = 100 * 1024

// ErrTutorialTooLarge is the seed's exact message for E05.
var ErrTutorialTooLarge = errors.New("Tutorial exceeds size limit (100KB)")

// ErrTutorialNotFound wraps a missing tutorial file (E04).
var ErrTutorialNotFound = errors.New("tutorial not found")

// ErrTutorialEncoding wraps a tutorial that is not UTF-8 (E06).
var ErrTutorialEncoding = errors.New("tutorial is not valid UTF-8")

// ErrTutorialNesting means a line of the tutorial nests lists or quotes
// deeper than markdown.MaxNesting: no page does, and parsing it would take
// seconds (issue 21).
var ErrTutorialNesting = errors.New("tutorial nests lists or block quotes too deeply")

// Tutorial is a loaded Markdown tutorial: the raw text (passed to the Student
// unchanged), its blocks with line numbers, and the images it references.
type Tutorial struct {
	Path    string
	Content string
	Blocks  []markdown.Block
	Images  []Image
	// Annotations are the author's instructions to SMILE in the page
	// (`<!-- smile: skip -->`, ```` ```sh {smile-exit=1} ````), each tied to
	// its code block.
	Annotations []Annotation
	// Steering is the page-wide settings of its front matter's `smile:`.
	Steering PageSteering
}

// ImageFormat is one of the formats the seed supports.
type ImageFormat string

// Supported image formats.
const (
	ImagePNG ImageFormat = "png"
	ImageJPG ImageFormat = "jpg"
	ImageGIF ImageFormat = "gif"
	ImageSVG ImageFormat = "svg"
)

// Image is an image the tutorial references, resolved relative to it.
type Image struct {
	Reference string      // as written in the Markdown
	Path      string      // resolved on disk
	Line      int         // 1-based line of the reference
	Format    ImageFormat // "" when the extension is not a supported format
	Missing   bool        // the file does not exist (E07: the Student decides)
	Data      []byte      // the bytes, for providers that can see images
}

// LoadTutorial reads a tutorial and parses it. It fails on a missing file
// (E04), a file over 100 KB (E05) and a file that is not UTF-8 (E06). Missing
// images are not errors: they are reported by the Student (E07).
func LoadTutorial(path string) (*Tutorial, error) {
	return loadTutorial(path, ProjectRoot(filepath.Dir(path)))
}

// loadTutorial is LoadTutorial reading images only inside root: an image
// reference leading out of the project is treated as missing, not read.
func loadTutorial(path, root string) (*Tutorial, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s%s", ErrTutorialNotFound, path, pagesHint(path))
	}
	if err != nil {
		return nil, fmt.Errorf("load tutorial %s: %w", path, err)
	}
	if info.IsDir() {
		return nil, fmt.Errorf("load tutorial %s: is a directory, not a Markdown file", path)
	}
	if info.Size() > MaxTutorialBytes {
		return nil, ErrTutorialTooLarge
	}
	data, err := ReadRegularFile(path)
	if err != nil {
		return nil, fmt.Errorf("load tutorial %s: %w", path, err)
	}
	if len(data) > MaxTutorialBytes {
		return nil, ErrTutorialTooLarge
	}
	if !utf8.Valid(data) {
		line, col := firstInvalidUTF8(data)
		return nil, fmt.Errorf("%w: %s:%d:%d (only UTF-8 tutorials are supported)", ErrTutorialEncoding, path, line, col)
	}
	if depth, line := markdown.Nesting(data); depth > markdown.MaxNesting {
		return nil, fmt.Errorf("%w: %s:%d opens %d nested lists or quotes (at most %d are read)", ErrTutorialNesting, path, line, depth, markdown.MaxNesting)
	}
	t := &Tutorial{Path: path, Content: string(data)}
	doc := markdown.ParseMarkdown(data)
	t.Blocks = doc.Blocks
	if t.Annotations, err = ParseAnnotations(path, t.Content, t.Blocks); err != nil {
		return nil, err
	}
	if t.Steering, err = readPageSteering(path, t.Content); err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	cache := map[string][]byte{} // a screenshot referenced twice is read once
	for _, ref := range doc.Images {
		t.Images = append(t.Images, resolveImage(dir, root, ref, cache))
	}
	return t, nil
}

// LineText returns the text of a 1-based line, without its newline.
func (t *Tutorial) LineText(line int) string {
	return LineText(t.Content, line)
}

// LineText returns the text of a 1-based line of content.
func LineText(content string, line int) string {
	if line < 1 {
		return ""
	}
	for i := 1; i < line; i++ {
		nl := strings.IndexByte(content, '\n')
		if nl < 0 {
			return ""
		}
		content = content[nl+1:]
	}
	if nl := strings.IndexByte(content, '\n'); nl >= 0 {
		content = content[:nl]
	}
	return strings.TrimRight(content, "\r")
}

// resolveImage finds a referenced image beside the tutorial. The reference is
// read as a browser would: without its ?query or #fragment, with Markdown
// escapes, HTML entities and %-escapes decoded ("my%20shot.png" is the file
// "my shot.png"), falling back to the name as written when only that exists.
func resolveImage(dir, root string, ref markdown.ImageRef, cache map[string][]byte) Image {
	img := Image{Reference: ref.Destination, Line: ref.Line}
	target := ref.Destination
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		target = target[:i]
	}
	target = string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations([]byte(target)))))
	candidates := []string{target}
	if decoded, err := url.PathUnescape(target); err == nil && decoded != target {
		candidates = []string{decoded, target}
	}
	img.Path = filepath.Join(dir, filepath.FromSlash(candidates[0]))
	img.Missing = true
	for _, c := range candidates {
		p := filepath.Join(dir, filepath.FromSlash(c))
		if !Within(root, p) {
			continue // outside the project: missing, and never read
		}
		data, ok := cache[p]
		if !ok {
			var err error
			if data, err = ReadRegularFile(p); err != nil {
				continue
			}
			cache[p] = data
		}
		img.Path, img.Data, img.Missing = p, data, false
		break
	}
	switch strings.ToLower(filepath.Ext(img.Path)) {
	case ".png":
		img.Format = ImagePNG
	case ".jpg", ".jpeg":
		img.Format = ImageJPG
	case ".gif":
		img.Format = ImageGIF
	case ".svg":
		img.Format = ImageSVG
	}
	return img
}

func firstInvalidUTF8(data []byte) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return line, col
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i += size
	}
	return line, col
}

// pagesHint names, for a tutorial that is not there, the Markdown page of
// its folder it was probably meant to be (" (did you mean guide.md?)"), else
// the folder's pages when there are a few; "" when the folder has none.
func pagesHint(path string) string {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return ""
	}
	var pages []string
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".md", ".markdown", ".mdx":
			if !e.IsDir() {
				pages = append(pages, e.Name())
			}
		}
	}
	if best := Nearest(filepath.Base(path), pages); best != "" {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	// The same name with another extension (guide.markdown for guide.md).
	stems := make([]string, len(pages))
	for i, p := range pages {
		stems[i] = strings.TrimSuffix(p, filepath.Ext(p))
	}
	base := filepath.Base(path)
	if best := Nearest(strings.TrimSuffix(base, filepath.Ext(base)), stems); best != "" {
		return fmt.Sprintf(" (did you mean %s?)", pages[slices.Index(stems, best)])
	}
	switch {
	case len(pages) == 0:
		return ""
	case len(pages) <= 5:
		return fmt.Sprintf(" (the folder's Markdown pages: %s)", strings.Join(pages, ", "))
	}
	return fmt.Sprintf(" (the folder has %d Markdown pages, such as %s)", len(pages), strings.Join(pages[:3], ", "))
}
