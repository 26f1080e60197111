package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/smile-loop/smile/status/baseline"
	"github.com/smile-loop/smile/status/report/mdtext"

	"github.com/smile-loop/smile/status"
)

// SARIF 2.1.0 (OASIS): what code scanning (GitHub, GitLab, Azure DevOps)
// reads. Only the properties SMILE fills are modelled.
const (
	sarifSchema  = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
	sarifVersion = "2.1.0"
	// smileURI is SMILE's home, where the rules' help lives.
	smileURI = "https://github.com/smile-loop/smile"
	// srcRoot is the base the tutorial's path is relative to: the
	// repository's root, as code scanning expects.
	srcRoot = "%SRCROOT%"
	// fingerprintKey names SMILE's fingerprint of a gap: its category and
	// quote, not its line, so a gap keeps its identity when lines move.
	fingerprintKey = "smileGap/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool         `json:"tool"`
	AutomationDetails *sarifAutomation  `json:"automationDetails,omitempty"`
	Invocations       []sarifInvocation `json:"invocations"`
	Results           []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     sarifText     `json:"shortDescription"`
	HelpURI              string        `json:"helpUri"`
	DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
	Properties           sarifProps    `json:"properties"`
}

type sarifRuleConf struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifProps map[string]any

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool       `json:"executionSuccessful"`
	EndTimeUTC          string     `json:"endTimeUtc,omitempty"`
	Properties          sarifProps `json:"properties"`
	// Notifications say what is not a result: an inconclusive run.
	Notifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
	// BaselineState is new, unchanged or absent against the workspace's
	// baseline (smile baseline); omitted without one.
	BaselineState string     `json:"baselineState,omitempty"`
	Properties    sarifProps `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri,omitempty"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int        `json:"startLine"`
	EndLine   int        `json:"endLine,omitempty"`
	Snippet   *sarifText `json:"snippet,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

// categoryRule describes a gap category as a SARIF rule.
type categoryRule struct {
	name, description, level string
}

// categoryRules follow the categories' order in types.go. The level is the
// category's usual severity (status's defaultSeverity); each result
// carries its own.
var categoryRules = []struct {
	category status.Category
	categoryRule
}{
	{status.CategoryMissingDependency, categoryRule{"MissingDependency", "A tool or package the tutorial uses is never installed.", "error"}},
	{status.CategoryPermissionDenied, categoryRule{"PermissionDenied", "A step is not allowed to do what it tries: a script never made executable, a path the learner cannot write.", "error"}},
	{status.CategoryMissingFile, categoryRule{"MissingFile", "A step uses a file or folder that no earlier step creates.", "error"}},
	{status.CategoryUndefinedVariable, categoryRule{"UndefinedVariable", "A step uses a variable the tutorial never sets.", "error"}},
	{status.CategoryTimeout, categoryRule{"Timeout", "A step does not finish in time, or starts something that never ends.", "error"}},
	{status.CategoryOutputMismatch, categoryRule{"OutputMismatch", "The output the tutorial shows differs from what the step prints.", "warning"}},
	{status.CategoryAmbiguousInstruction, categoryRule{"AmbiguousInstruction", "The tutorial does not say what to do with a block: save it (where?) or run it.", "error"}},
	{status.CategoryMissingImage, categoryRule{"MissingImage", "An image the tutorial shows is missing.", "warning"}},
	{status.CategoryCommandFailure, categoryRule{"CommandFailure", "A command fails as the tutorial writes it.", "error"}},
	{status.CategoryEnvironment, categoryRule{"Environment", "The container lacked something the step needs (network, a daemon, a tool the tutorial lists as a prerequisite); the run's settings, not the tutorial, should change.", "note"}},
}

// sarifLevel maps a gap's severity to a result level.
func sarifLevel(s status.Severity) string {
	switch s {
	case status.SeverityCritical, status.SeverityMajor:
		return "error"
	}
	return "warning"
}

// RenderSARIF renders the report as a SARIF 2.1.0 log: one rule per gap
// category, one result per gap at its tutorial line, with the suggested
// change as a fix when there is one.
func RenderSARIF(r *Report) ([]byte, error) {
	return encodeSARIF(sarifRunOf([]*Report{r}))
}

// sarifRunOf is one SARIF run for the reports: the rules of all their gaps,
// an invocation per report, and each gap a result on its own tutorial.
func sarifRunOf(reports []*Report) sarifRun {
	var all []status.Gap
	for i, r := range reports {
		reports[i] = redactReport(r)
		all = append(all, reports[i].Gaps...)
	}
	rules, index := sarifRules(all)
	run := sarifRun{
		Tool:    sarifTool{Driver: sarifDriver{Name: "SMILE", InformationURI: smileURI, Version: toolVersion(reports[0]), Rules: rules}},
		Results: []sarifResult{},
	}
	for _, r := range reports {
		inv := sarifInvocation{
			ExecutionSuccessful: r.Summary.Status != ReportError,
			Properties: sarifProps{
				"status": r.Summary.Status, "reason": r.Summary.Reason, "iterations": r.Summary.Iterations,
				"durationSeconds": r.Summary.DurationSeconds,
			},
		}
		if len(reports) > 1 {
			inv.Properties["run"], inv.Properties["tutorial"] = r.RunName, sourcePath(r)
		}
		if c := r.Coverage; c != nil {
			inv.Properties["coverage"], inv.Properties["codeBlocks"], inv.Properties["exercisedBlocks"] = c.Cell(), c.Blocks, c.Exercised
		}
		if r.Summary.Status == ReportInconclusive {
			// Not a result: an inconclusive run is no gap of the page.
			inv.Notifications = []sarifNotification{{Level: "warning", Message: sarifText{Text: inconclusiveNote + " " + r.Summary.Message}}}
		}
		if !r.GeneratedAt.IsZero() {
			inv.EndTimeUTC = r.GeneratedAt.UTC().Format(time.RFC3339)
		}
		run.Invocations = append(run.Invocations, inv)
		run.Results = append(run.Results, sarifResults(r, index)...)
	}
	id := "smile/"
	if len(reports) == 1 {
		id = automationID(reports[0])
	}
	if id != "" {
		run.AutomationDetails = &sarifAutomation{ID: id}
	}
	return run
}

// sarifResults are a report's gaps as results, on its tutorial's path.
func sarifResults(r *Report, index map[string]int) []sarifResult {
	artifact := sarifArtifact{URI: sarifURI(sourcePath(r))}
	if artifact.URI != "" {
		artifact.URIBaseID = srcRoot
	}
	var out []sarifResult
	seen := map[string]int{}
	for _, g := range r.Gaps {
		res := sarifResult{
			RuleID:    ruleID(g.Category),
			RuleIndex: index[ruleID(g.Category)],
			Level:     gapLevel(g),
			Message:   sarifText{Text: sarifMessage(g)},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact}}},
			Properties: sarifProps{
				"gapId": g.ID, "title": mdtext.StripControl(g.Title), "severity": string(g.Severity), "iteration": g.Iteration,
			},
		}
		if n := g.Location.LineNumber; n > 0 {
			region := &sarifRegion{StartLine: n}
			if q := mdtext.StripControl(g.Location.Quote); strings.TrimSpace(q) != "" {
				region.Snippet = &sarifText{Text: q}
			}
			res.Locations[0].PhysicalLocation.Region = region
		}
		fp := status.Fingerprint(g)
		seen[fp]++
		if seen[fp] > 1 { // the same quote twice: tell the occurrences apart
			fp = status.Fingerprint(g, fmt.Sprint(seen[fp]))
		}
		res.PartialFingerprints = map[string]string{fingerprintKey: fp}
		res.Fixes = sarifFixes(r, g, artifact)
		if i := len(out); i < len(r.BaselineStates) {
			res.BaselineState = r.BaselineStates[i]
		}
		out = append(out, res)
	}
	return append(out, sarifAbsent(r, index, artifact)...)
}

// sarifAbsent are the accepted gaps gone from the page: results in state
// absent, at level none (fixed, nothing to look at).
func sarifAbsent(r *Report, index map[string]int, artifact sarifArtifact) []sarifResult {
	var out []sarifResult
	for _, e := range r.BaselineAbsent {
		id := ruleID(e.Category)
		if _, ok := index[id]; !ok {
			continue // SARIF needs the rule in the run's rules; a category this run never reported stays out
		}
		res := sarifResult{RuleID: id, RuleIndex: index[id], Level: "none", BaselineState: baseline.StateAbsent,
			Message:             sarifText{Text: "Fixed: the accepted gap " + strings.TrimSpace(mdtext.StripControl(e.Quote)) + " is gone."},
			Locations:           []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact}}},
			PartialFingerprints: map[string]string{fingerprintKey: e.Fingerprint},
			Properties:          sarifProps{"acceptedAt": e.AcceptedAt},
		}
		out = append(out, res)
	}
	return out
}

// sarifFixes is the gap's suggested change as a fix, when there is one.
func sarifFixes(r *Report, g status.Gap, artifact sarifArtifact) []sarifFix {
	s, ok := suggestionFor(r, g)
	if !ok || artifact.URI == "" {
		return nil
	}
	return []sarifFix{{
		Description: sarifText{Text: s.Description},
		ArtifactChanges: []sarifArtifactChange{{
			ArtifactLocation: artifact,
			Replacements: []sarifReplacement{{
				// A region of whole lines, without its line break.
				DeletedRegion:   sarifRegion{StartLine: s.Line, EndLine: s.Line},
				InsertedContent: sarifText{Text: s.Text()},
			}},
		}},
	}}
}

func encodeSARIF(run sarifRun) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}); err != nil {
		return nil, fmt.Errorf("encode SARIF: %w", err)
	}
	return buf.Bytes(), nil
}

// sarifRules are one rule per known category, then one per other category
// the gaps use, with each rule's index.
func sarifRules(gaps []status.Gap) ([]sarifRule, map[string]int) {
	var rules []sarifRule
	index := map[string]int{}
	add := func(id string, cr categoryRule) {
		index[id] = len(rules)
		rules = append(rules, sarifRule{
			ID: id, Name: cr.name, ShortDescription: sarifText{Text: cr.description},
			HelpURI:              smileURI + "/blob/main/docs/ci.md#gap-categories",
			DefaultConfiguration: sarifRuleConf{Level: cr.level},
			Properties:           sarifProps{"tags": []string{"documentation", "tutorial"}},
		})
	}
	for _, c := range categoryRules {
		add(string(c.category), c.categoryRule)
	}
	for _, g := range gaps {
		id := ruleID(g.Category)
		if _, ok := index[id]; !ok {
			add(id, categoryRule{name: pascalCase(id), description: categoryLabel(status.Category(id)) + " gaps.", level: "warning"})
		}
	}
	return rules, index
}

// pascalCase turns snake_case into PascalCase, SARIF's style for rule names.
func pascalCase(s string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' || r == ' ' }) {
		first, size := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(first))
		b.WriteString(w[size:])
	}
	return b.String()
}

func ruleID(c status.Category) string {
	if s := strings.TrimSpace(mdtext.StripControl(string(c))); s != "" {
		return s
	}
	return "gap"
}

// sarifMessage is the gap's problem and its suggested fix, as plain text.
func sarifMessage(g status.Gap) string {
	text := strings.TrimSpace(mdtext.StripControl(g.Problem))
	if text == "" {
		text = strings.TrimSpace(mdtext.StripControl(g.Title))
	}
	if text == "" {
		text = categoryLabel(g.Category)
	}
	text += gapCauseSentences(g)
	prose, blocks := mdtext.SplitFences(mdtext.StripControl(g.SuggestedFix))
	if prose == "" && len(blocks) == 0 {
		return text
	}
	text += "\nSuggested fix: " + prose
	for _, b := range blocks {
		text += "\n" + strings.TrimRight(b.Body, "\n")
	}
	return strings.TrimRight(text, " ")
}

// sarifURI is a relative path as a URI reference: percent-encoded, and
// never mistaken for a scheme.
func sarifURI(p string) string {
	if p == "" {
		return ""
	}
	return (&url.URL{Path: p}).String()
}

var automationUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// automationID makes each run its own code scanning category
// ("smile/quickstart/"), so two tutorials' uploads do not replace each
// other's results.
func automationID(r *Report) string {
	name := r.RunName
	if name == "" {
		name = r.TutorialName
	}
	name = strings.Trim(automationUnsafe.ReplaceAllString(name, "-"), "-")
	if name == "" {
		return ""
	}
	return "smile/" + name + "/"
}
