package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSettingsSayWhereEachCameFrom(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "smile.json"), `{"maxIterations": 5, "studentBehavior": {"patienceLevel": "HIGH", "timeoutSeconds": 90}, "maxIteration": 3}`)
	writeTestFile(t, filepath.Join(dir, "tutorial.md"), "# T\n")
	m, err := parseManifest([]byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: s}\nspec:\n  timeout: 600\n  studentBehavior: {timeoutSeconds: 30}\n"), "run.yaml")
	if err != nil {
		t.Fatal(err)
	}
	settings, err := m.Settings(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Setting{}
	for _, s := range settings {
		got[s.Path] = s
	}
	for _, tt := range []struct {
		path, value string
		source      Source
	}{
		{"timeout", "600", SourceManifest},
		{"studentBehavior.timeoutSeconds", "30", SourceManifest}, // the manifest wins over smile.json
		{"maxIterations", "5", SourceConfig},
		{"studentBehavior.patienceLevel", `"high"`, SourceConfig},
		{"containerImage", `"smile-base:latest"`, SourceDefault},
		{"container.keepOnFailure", "true", SourceDefault},
	} {
		s, ok := got[tt.path]
		if !ok || s.Value != tt.value || s.Source != tt.source {
			t.Errorf("%s = %+v, want value %s from %s", tt.path, s, tt.value, tt.source)
		}
	}
	if _, ok := got["maxIteration"]; ok {
		t.Error("an unknown key is listed as a setting")
	}
}

func TestConfigWarningsNameUnknownKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "smile.json")
	writeTestFile(t, path, `{"maxIteration": 3, "studentBehavior": {"timeoutSecond": 5}, "patienceLevel": "low", "tutorial": "t.md"}`)
	warnings, err := ConfigWarnings(path)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{
		`unknown field "maxIteration" (did you mean "maxIterations"?) is ignored`,
		`unknown field "studentBehavior.timeoutSecond" (did you mean "timeoutSeconds"?) is ignored`,
		`unknown field "patienceLevel" (did you mean "studentBehavior.patienceLevel"?) is ignored`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if len(warnings) != 3 {
		t.Errorf("%d warnings, want 3 (tutorial is known):\n%s", len(warnings), all)
	}
	if w, err := ConfigWarnings(filepath.Join(dir, "absent.json")); err != nil || len(w) != 0 {
		t.Errorf("no smile.json: %v %v, want no warning (E01)", w, err)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The resume setting in force says when it is ignored: the manifest asks
// for checkpoints and smile.json names the provider, so only the two
// together tell (which is why it is no validation error).
func TestSettingsSayWhenResumeIsIgnored(t *testing.T) {
	for _, tt := range []struct {
		provider, want string
	}{
		{"claude", "llmProvider claude keeps no checkpoints: every iteration starts from the top"},
		{"literal", ""},
	} {
		dir := t.TempDir()
		writeTestFile(t, filepath.Join(dir, "smile.json"), `{"llmProvider": "`+tt.provider+`"}`)
		writeTestFile(t, filepath.Join(dir, "tutorial.md"), "# T\n")
		m, err := parseManifest([]byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: s}\nspec:\n  resume: checkpoint\n"), "run.yaml")
		if err != nil {
			t.Fatalf("%s: %v", tt.provider, err)
		}
		settings, err := m.Settings(dir)
		if err != nil {
			t.Fatalf("%s: %v", tt.provider, err)
		}
		for _, s := range settings {
			if got := s.Ignored; s.Path == "resume" && got != tt.want || s.Path != "resume" && got != "" {
				t.Errorf("%s: %s ignored %q, want %q", tt.provider, s.Path, got, tt.want)
			}
		}
	}
}

// describe lists the settings a run's provider reads: no model settings for
// literal, no openai.* for a vendor CLI, unless set, and then as ignored.
func TestSettingsLeaveOutWhatTheProviderNeverReads(t *testing.T) {
	for _, tt := range []struct {
		provider string
		absent   []string
		present  []string
		ignored  map[string]string
	}{
		{"literal", []string{"models.student", "maxTurns.mentor", "invocationTimeoutSeconds.student", "budgetUsd", "prices", "openai.baseUrl"},
			[]string{"timeout", "resume", "minCoverage"},
			map[string]string{"models.student": "llmProvider literal calls no model"}},
		{"claude", []string{"openai.baseUrl", "openai.apiKeyEnv"},
			[]string{"models.mentor", "maxTurns.student", "budgetUsd", "prices"},
			map[string]string{}},
		{"openai", nil, []string{"openai.baseUrl", "openai.apiKeyEnv", "models.mentor"}, map[string]string{}},
	} {
		dir := t.TempDir()
		writeTestFile(t, filepath.Join(dir, "smile.json"), `{"llmProvider": "`+tt.provider+`"}`)
		writeTestFile(t, filepath.Join(dir, "tutorial.md"), "# T\n")
		extra := ""
		if len(tt.ignored) > 0 {
			extra = "  models: {student: some-model}\n"
		}
		m, err := parseManifest([]byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: s}\nspec:\n"+extra), "run.yaml")
		if err != nil {
			t.Fatalf("%s: %v", tt.provider, err)
		}
		settings, err := m.Settings(dir)
		if err != nil {
			t.Fatalf("%s: %v", tt.provider, err)
		}
		got := map[string]Setting{}
		for _, s := range settings {
			got[s.Path] = s
		}
		for _, p := range tt.absent {
			if s, ok := got[p]; ok && tt.ignored[p] == "" {
				t.Errorf("%s: lists %s = %s, which it never reads", tt.provider, p, s.Value)
			}
		}
		for _, p := range tt.present {
			if _, ok := got[p]; !ok {
				t.Errorf("%s: does not list %s", tt.provider, p)
			}
		}
		for p, why := range tt.ignored {
			if s := got[p]; s.Source != SourceManifest || s.Ignored != why {
				t.Errorf("%s: %s = %+v, want it from the manifest, ignored: %s", tt.provider, p, s, why)
			}
		}
	}
}
