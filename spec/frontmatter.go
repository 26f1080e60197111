package spec

import "errors"

// PageSteering is what a page's YAML front matter tells SMILE under its
// `smile:` key, for the whole page: the same settings as smile.json's
// runners and setup, kept with the page they are about so that the page
// carries them into any workspace.
//
//	---
//	title: A survey in SQLite
//	smile:
//	  runners:
//	    sql: sqlite3 survey.db
//	  setup:
//	    - cp /data/survey.csv .
//	---
//
// The page's runners win over smile.json's for the same language (the page
// knows its blocks); its setup runs after smile.json's.
type PageSteering struct {
	Runners map[string]string `json:"runners,omitempty"`
	Setup   []string          `json:"setup,omitempty"`
	// Line is the line of the page where `smile:` is written, 0 when the
	// page has none.
	Line int `json:"line,omitempty"`
}

// ErrFrontMatter wraps every error in a page's `smile:` front matter.
var ErrFrontMatter = errors.New("smile front matter")

// pageSteeringReader reads a page's `smile:` front matter when the tutorial
// is loaded. Package spec/frontmatter sets it (imported by the controller's
// packages for that effect, as image formats register themselves): the
// wrapper, which gets the page's settings in its task, then links no YAML
// library.
var pageSteeringReader func(path, content string) (PageSteering, error)

// RegisterPageSteeringReader sets the reader of pages' `smile:` front matter.
func RegisterPageSteeringReader(read func(path, content string) (PageSteering, error)) {
	pageSteeringReader = read
}

// readPageSteering is the page's steering, when a reader is registered.
func readPageSteering(path, content string) (PageSteering, error) {
	if pageSteeringReader == nil {
		return PageSteering{}, nil
	}
	return pageSteeringReader(path, content)
}

// MergeRunners is smile.json's runners with the page's over them: the page
// knows its own blocks. nil when neither has any.
func MergeRunners(config, page map[string]string) map[string]string {
	if len(config) == 0 && len(page) == 0 {
		return nil
	}
	out := make(map[string]string, len(config)+len(page))
	for k, v := range config {
		out[k] = v
	}
	for k, v := range page {
		out[k] = v
	}
	return out
}
