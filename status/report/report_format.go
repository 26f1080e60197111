package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
)

// Report formats, as --format names them.
const (
	FormatMarkdown = "md"
	FormatJSON     = "json"
	FormatSARIF    = "sarif"
	FormatGitHub   = "github"
	FormatJUnit    = "junit"
	FormatSummary  = "summary"
)

// Formats are the report formats, in the order --help lists them.
var Formats = []string{FormatMarkdown, FormatJSON, FormatSARIF, FormatGitHub, FormatJUnit, FormatSummary}

// ErrUnknownFormat is returned for a format that is not one of Formats.
var ErrUnknownFormat = errors.New("unknown report format")

var formatFiles = map[string]string{
	FormatMarkdown: ReportMarkdownFile,
	FormatJSON:     ReportJSONFile,
	FormatSARIF:    "smile-report.sarif",
	FormatGitHub:   "smile-report.github.txt",
	FormatJUnit:    "smile-report.junit.xml",
	FormatSummary:  "smile-report.summary.md",
}

// FormatFileName is the file a format is written to in the run's outputDir,
// "" for an unknown format.
func FormatFileName(format string) string { return formatFiles[format] }

func unknownFormat(format string) error {
	return fmt.Errorf("%w %q: want one of %s", ErrUnknownFormat, format, strings.Join(Formats, ", "))
}

// ParseFormats reads a --format value: formats separated by commas, blanks
// ignored, each kept once in the order given.
func ParseFormats(list string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(list, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		if FormatFileName(f) == "" {
			return nil, unknownFormat(f)
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// RenderFormat renders the report in one of Formats. Every format is
// redacted (API keys, tokens) like the Markdown and JSON reports.
func RenderFormat(format string, r *Report) ([]byte, error) {
	switch format {
	case FormatMarkdown:
		return RenderMarkdown(r), nil
	case FormatJSON:
		return RenderJSON(r)
	case FormatSARIF:
		return RenderSARIF(r)
	case FormatGitHub:
		return RenderGitHub(r), nil
	case FormatJUnit:
		return RenderJUnit(r)
	case FormatSummary:
		return RenderSummary(r), nil
	}
	return nil, unknownFormat(format)
}

// WriteFormats writes each requested format into dir (created if missing)
// as FormatFileName names it, atomically, and returns the paths written. Like
// WriteReports, a failed write is retried, and a file that still cannot be
// written goes to fallback instead, the error saying which. An unknown
// format fails before anything is written.
func WriteFormats(dir string, r *Report, formats []string, fallback io.Writer) ([]string, error) {
	return Writer{}.WriteFormats(dir, r, formats, fallback)
}

// WriteFormats writes the formats as WriteFormats does, with w.
func (w Writer) WriteFormats(dir string, r *Report, formats []string, fallback io.Writer) ([]string, error) {
	for _, f := range formats {
		if FormatFileName(f) == "" {
			return nil, unknownFormat(f)
		}
	}
	var written []string
	var errs []error
	r = r.writtenIn(dir)
	for _, f := range formats {
		data, err := RenderFormat(f, r)
		if err != nil {
			errs = append(errs, fmt.Errorf("render %s: %w", f, err))
			continue
		}
		path := filepath.Join(dir, FormatFileName(f))
		if err := w.writeWithRetry(path, data); err != nil {
			errs = append(errs, err)
			if fallback != nil {
				_, _ = fallback.Write(data)
			}
			continue
		}
		written = append(written, path)
	}
	if len(errs) > 0 {
		return written, fmt.Errorf("write report to %s: %w", dir, writeErrors(errs))
	}
	return written, nil
}

// RepoRelativePath is path (a file on disk) relative to the root of the Git
// repository holding it, with forward slashes: what SARIF and GitHub
// annotations need. "" when path is in no repository.
func RepoRelativePath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			rel, err := filepath.Rel(dir, abs)
			if err != nil {
				return ""
			}
			return filepath.ToSlash(rel)
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// GitHubBlobURL is where GitHub shows the files of the commit a workflow
// runs on (https://github.com/OWNER/REPO/blob/SHA/), from the variables
// GitHub Actions sets; "" outside GitHub Actions. Pass os.Getenv.
func GitHubBlobURL(getenv func(string) string) string {
	server, repo, sha := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_REPOSITORY"), getenv("GITHUB_SHA")
	if server == "" || repo == "" || sha == "" {
		return ""
	}
	return strings.TrimSuffix(server, "/") + "/" + repo + "/blob/" + sha + "/"
}

// sourcePath is where the CI formats point: the tutorial from the
// repository root, else as the user named it.
func sourcePath(r *Report) string {
	if r.SourcePath != "" {
		return r.SourcePath
	}
	return slashPath(r.Summary.TutorialPath)
}

// slashPath is a relative path with forward slashes and no leading "./".
func slashPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

func toolVersion(r *Report) string {
	if r.ToolVersion != "" {
		return r.ToolVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
