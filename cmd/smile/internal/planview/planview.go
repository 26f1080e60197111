// Package planview renders how the literal Student reads a page (its
// readings, reading.Describe) for a person: the table `smile plan` prints, or
// the same as a JSON or YAML document.
package planview

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/smile-loop/smile/learner/literal/explain"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/runfile"
)

// Document is `smile plan -o json|yaml`: the tutorial and its readings.
type Document struct {
	Tutorial string            `json:"tutorial"`
	Steps    []explain.Reading `json:"steps"`
}

// Write prints a page's readings: a table, or the Document as json or
// yaml.
func Write(w io.Writer, path string, steps []explain.Reading, format string) error {
	doc := Document{Tutorial: path, Steps: steps}
	switch format {
	case "json", "yaml":
		data, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		if format == "yaml" {
			if data, err = runfile.JSONToYAML(data); err != nil {
				return err
			}
			_, err = w.Write(data)
			return err
		}
		_, err = fmt.Fprintln(w, string(data))
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "LINES\tLANG\tACTION\tTARGET\tWHY")
	for _, s := range steps {
		lines := fmt.Sprint(s.Line)
		if s.EndLine > s.Line {
			lines = fmt.Sprintf("%d-%d", s.Line, s.EndLine)
		}
		why := s.Why
		if len(s.Evidence) > 0 {
			why = strings.TrimSpace(why + " [rules: " + rule.Explain(s.Evidence) + "]")
		}
		if len(s.Flags) > 0 {
			why = strings.TrimSpace("[" + strings.Join(s.Flags, "; ") + "] " + why)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", lines, orDash(s.Lang), s.Action, orDash(cell(s.Target)), orDash(cell(why)))
	}
	return tw.Flush()
}

// cell keeps a table cell on one line.
func cell(s string) string { return strings.Join(strings.Fields(s), " ") }

// orDash shows an empty cell as "-".
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
