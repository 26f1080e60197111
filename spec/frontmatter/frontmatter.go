// Package frontmatter reads what a page's YAML front matter tells SMILE
// under its `smile:` key (spec.PageSteering). Importing it registers its
// reader with spec, so every tutorial the importing program loads carries
// its page's settings; the wrapper does not import it (it gets them in its
// task) and links no YAML library.
package frontmatter

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/markdown"
)

func init() { spec.RegisterPageSteeringReader(Parse) }

// pageSteeringKeys are the keys `smile:` may hold.
var pageSteeringKeys = []string{"runners", "setup"}

// Parse reads the `smile:` key of a page's YAML front matter.
// A page without front matter, or whose front matter has no `smile:`, has
// none; a `smile:` in TOML front matter, an unknown key or a value of the
// wrong shape is an error with the page's file:line:col.
func Parse(path, content string) (spec.PageSteering, error) {
	body, delim, ok := markdown.FrontMatter([]byte(content))
	if !ok {
		return spec.PageSteering{}, nil
	}
	fail := func(line, col int, format string, args ...any) error {
		// The front matter's first line is the page's second.
		return fmt.Errorf("%s:%d:%d: %w: %s", path, line+1, col, spec.ErrFrontMatter, fmt.Sprintf(format, args...))
	}
	if delim == "+++" {
		for i, l := range strings.Split(body, "\n") {
			if t := strings.TrimSpace(l); t == "[smile]" || strings.HasPrefix(t, "smile") && strings.Contains(t, "=") {
				return spec.PageSteering{}, fail(i+1, 1, "SMILE reads its settings from YAML front matter (---), not TOML (+++)")
			}
		}
		return spec.PageSteering{}, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
		// Front matter that is not YAML is the site generator's business,
		// unless it is SMILE's key that cannot be read.
		if strings.Contains(body, "\nsmile:") || strings.HasPrefix(body, "smile:") {
			return spec.PageSteering{}, fail(1, 1, "the front matter is not valid YAML: %v", err)
		}
		return spec.PageSteering{}, nil
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return spec.PageSteering{}, nil
	}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "smile" {
			return pageSteering(top.Content[i], top.Content[i+1], fail)
		}
	}
	return spec.PageSteering{}, nil
}

// pageSteering decodes the value of `smile:` (key is the key's node).
func pageSteering(key, n *yaml.Node, fail func(int, int, string, ...any) error) (spec.PageSteering, error) {
	ps := spec.PageSteering{Line: key.Line + 1}
	if n.Kind != yaml.MappingNode {
		return ps, fail(n.Line, n.Column, "smile: must be a mapping of %s", strings.Join(pageSteeringKeys, " and "))
	}
	var errs []error
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "runners":
			if v.Kind != yaml.MappingNode {
				errs = append(errs, fail(v.Line, v.Column, "smile.runners must map a code block's language to the program its blocks are typed into"))
				continue
			}
			ps.Runners = map[string]string{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				lang, prog := v.Content[j], v.Content[j+1]
				if prog.Kind != yaml.ScalarNode || strings.TrimSpace(prog.Value) == "" {
					errs = append(errs, fail(prog.Line, prog.Column, "smile.runners.%s must name the program its blocks are typed into", lang.Value))
					continue
				}
				ps.Runners[lang.Value] = prog.Value
			}
		case "setup":
			if v.Kind != yaml.SequenceNode {
				errs = append(errs, fail(v.Line, v.Column, "smile.setup must be a list of commands"))
				continue
			}
			for j, c := range v.Content {
				if c.Kind != yaml.ScalarNode || strings.TrimSpace(c.Value) == "" {
					errs = append(errs, fail(c.Line, c.Column, "smile.setup[%d] must be a command", j))
					continue
				}
				ps.Setup = append(ps.Setup, c.Value)
			}
		default:
			msg := fmt.Sprintf("unknown key %q under smile: (known: %s)", k.Value, strings.Join(pageSteeringKeys, ", "))
			if hint := spec.Nearest(k.Value, pageSteeringKeys); hint != "" {
				msg = fmt.Sprintf("unknown key %q under smile: (did you mean %q?)", k.Value, hint)
			}
			errs = append(errs, fail(k.Line, k.Column, "%s", msg))
		}
	}
	return ps, errors.Join(errs...)
}
