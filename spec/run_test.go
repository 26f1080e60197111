package spec

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
)

// digestFixture is a project folder: manifest, smile.json, tutorial, image.
func digestFixture(t *testing.T) (dir string, run *SmileRun) {
	t.Helper()
	dir = t.TempDir()
	writeFile(t, dir, ConfigFileName, `{"tutorial": "docs/tutorial.md", "maxIterations": 4}`)
	writeFile(t, dir, "docs/tutorial.md", "# T\n\n![s](img/s.png)\n\n```sh\necho hi\n```\n")
	writeFile(t, dir, "docs/img/s.png", "\x89PNG-one")
	return dir, mustParse(t, manifestHead+"spec:\n  timeout: 300\n")
}

func TestResolveDesired(t *testing.T) {
	dir, run := digestFixture(t)
	d, err := Resolve(run, dir)
	if err != nil {
		t.Fatalf("Resolve error = %v", err)
	}
	wantCfg := DefaultConfig()
	wantCfg.Tutorial = "docs/tutorial.md"
	wantCfg.MaxIterations = 4
	wantCfg.Timeout = 300
	if d.Name != "quickstart" || d.Dir != dir || d.Manifest != run {
		t.Errorf("Desired = {Name:%q Dir:%q Manifest:%p}, want {quickstart %q %p}", d.Name, d.Dir, d.Manifest, dir, run)
	}
	if !reflect.DeepEqual(d.Config, wantCfg) {
		t.Errorf("Config =\n  %+v\nwant\n  %+v", d.Config, wantCfg)
	}
	wantPaths := Paths{
		Config:    filepath.Join(dir, "smile.json"),
		Tutorial:  filepath.Join(dir, "docs", "tutorial.md"),
		StateFile: filepath.Join(dir, ".smile", "runs", "quickstart", "state.json"),
		OutputDir: filepath.Join(dir, ".smile", "runs", "quickstart"),
	}
	if d.Paths != wantPaths {
		t.Errorf("Paths =\n  %+v\nwant\n  %+v", d.Paths, wantPaths)
	}
	if d.Tutorial == nil || d.Tutorial.Path != wantPaths.Tutorial || len(d.Tutorial.Blocks) != 3 || len(d.Tutorial.Images) != 1 {
		t.Fatalf("Tutorial = %+v, want docs/tutorial.md with 3 blocks and 1 image", d.Tutorial)
	}
	if img := d.Tutorial.Images[0]; img.Path != filepath.Join(dir, "docs", "img", "s.png") || string(img.Data) != "\x89PNG-one" {
		t.Errorf("image = {Path:%q Data:%q}", img.Path, img.Data)
	}
	if want := Digest(d.Config, d.Tutorial); d.Digest != want {
		t.Errorf("Digest = %q, want Digest(Config, Tutorial) = %q", d.Digest, want)
	}
	if !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(d.Digest) {
		t.Errorf("Digest = %q, want sha256:<64 hex>", d.Digest)
	}
}

func TestResolveRelativeAndAbsolutePaths(t *testing.T) {
	dir, _ := digestFixture(t)
	// A repository around the manifest's folder: ../state is inside it.
	if err := os.Mkdir(filepath.Join(filepath.Dir(dir), ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(filepath.Dir(dir), "out")
	run := mustParse(t, manifestHead+"spec:\n  outputDir: "+abs+"\n  stateFile: ../state/s.json\n")
	t.Chdir(dir)
	d, err := Resolve(run, ".")
	if err != nil {
		t.Fatalf("Resolve error = %v", err)
	}
	if d.Dir != dir {
		t.Errorf("Dir = %q, want the absolute %q", d.Dir, dir)
	}
	if d.Paths.OutputDir != abs {
		t.Errorf("OutputDir = %q, want %q", d.Paths.OutputDir, abs)
	}
	if want := filepath.Join(filepath.Dir(dir), "state", "s.json"); d.Paths.StateFile != want {
		t.Errorf("StateFile = %q, want %q", d.Paths.StateFile, want)
	}
}

func TestResolveDesiredErrors(t *testing.T) {
	t.Run("missing tutorial", func(t *testing.T) {
		dir, run := digestFixture(t)
		if err := os.Remove(filepath.Join(dir, "docs", "tutorial.md")); err != nil {
			t.Fatal(err)
		}
		d, err := Resolve(run, dir)
		if d != nil || !errors.Is(err, ErrTutorialNotFound) {
			t.Errorf("Resolve = %v, %v; want nil and ErrTutorialNotFound", d, err)
		}
	})
	t.Run("invalid config", func(t *testing.T) {
		dir, run := digestFixture(t)
		writeFile(t, dir, ConfigFileName, `{"maxIterations": 0}`)
		d, err := Resolve(run, dir)
		want := filepath.Join(dir, ConfigFileName) + ": maxIterations must be a positive integer, got 0"
		if d != nil || err == nil || err.Error() != want {
			t.Errorf("Resolve = %v, %v; want nil and %q", d, err, want)
		}
	})
}

func TestDigest(t *testing.T) {
	cfg := DefaultConfig()
	tut := &Tutorial{
		Content: "# T\n![a](a.png)\n![b](b.svg)\n",
		Images: []Image{
			{Reference: "a.png", Path: "/p/a.png", Data: []byte("AAAA")},
			{Reference: "b.svg", Path: "/p/b.svg", Data: []byte("<svg/>")},
		},
	}
	base := Digest(cfg, tut)

	t.Run("identical inputs, identical digests", func(t *testing.T) {
		cfg2 := DefaultConfig()
		tut2 := &Tutorial{Content: tut.Content, Images: []Image{
			{Reference: "a.png", Path: "/p/a.png", Data: []byte("AAAA")},
			{Reference: "b.svg", Path: "/p/b.svg", Data: []byte("<svg/>")},
		}}
		if got := Digest(cfg2, tut2); got != base {
			t.Errorf("Digest of equal inputs = %q, want %q", got, base)
		}
	})
	t.Run("image order does not matter", func(t *testing.T) {
		swapped := &Tutorial{Content: tut.Content, Images: []Image{tut.Images[1], tut.Images[0]}}
		if got := Digest(cfg, swapped); got != base {
			t.Errorf("Digest with images swapped = %q, want %q", got, base)
		}
	})

	changes := []struct {
		name   string
		change func(c *Config, t *Tutorial)
	}{
		{"tutorial byte", func(_ *Config, t *Tutorial) { t.Content = "# U\n![a](a.png)\n![b](b.svg)\n" }},
		{"tutorial line ending", func(_ *Config, t *Tutorial) { t.Content = "# T\r\n![a](a.png)\n![b](b.svg)\n" }},
		{"image byte", func(_ *Config, t *Tutorial) { t.Images[0].Data = []byte("AAAB") }},
		{"image added", func(_ *Config, t *Tutorial) {
			t.Images = append(t.Images, Image{Path: "/p/c.gif", Data: []byte("GIF")})
		}},
		{"image removed", func(_ *Config, t *Tutorial) { t.Images = t.Images[:1] }},
		{"image bytes moved between images", func(_ *Config, t *Tutorial) {
			t.Images[0].Data, t.Images[1].Data = []byte("AAAA<svg"), []byte("/>")
		}},
		{"tutorial", func(c *Config, _ *Tutorial) { c.Tutorial = "other.md" }},
		{"llmProvider", func(c *Config, _ *Tutorial) { c.LLMProvider = ProviderLiteral }},
		{"maxIterations", func(c *Config, _ *Tutorial) { c.MaxIterations = 11 }},
		{"timeout", func(c *Config, _ *Tutorial) { c.Timeout = 1801 }},
		{"containerImage", func(c *Config, _ *Tutorial) { c.ContainerImage = "smile-base:v2" }},
		{"studentBehavior.maxRetriesBeforeHelp", func(c *Config, _ *Tutorial) { c.StudentBehavior.MaxRetriesBeforeHelp = 4 }},
		{"studentBehavior.askOnMissingDependency", func(c *Config, _ *Tutorial) { c.StudentBehavior.AskOnMissingDependency = false }},
		{"studentBehavior.askOnAmbiguousInstruction", func(c *Config, _ *Tutorial) { c.StudentBehavior.AskOnAmbiguousInstruction = false }},
		{"studentBehavior.askOnCommandFailure", func(c *Config, _ *Tutorial) { c.StudentBehavior.AskOnCommandFailure = false }},
		{"studentBehavior.askOnTimeout", func(c *Config, _ *Tutorial) { c.StudentBehavior.AskOnTimeout = false }},
		{"studentBehavior.timeoutSeconds", func(c *Config, _ *Tutorial) { c.StudentBehavior.TimeoutSeconds = 61 }},
		{"studentBehavior.patienceLevel", func(c *Config, _ *Tutorial) { c.StudentBehavior.PatienceLevel = PatienceHigh }},
		{"container.keepOnFailure", func(c *Config, _ *Tutorial) { c.Container.KeepOnFailure = false }},
		{"container.keepOnSuccess", func(c *Config, _ *Tutorial) { c.Container.KeepOnSuccess = true }},
		{"stateFile", func(c *Config, _ *Tutorial) { c.StateFile = "s.json" }},
		{"outputDir", func(c *Config, _ *Tutorial) { c.OutputDir = "out" }},
	}
	seen := map[string]string{base: "base"}
	for _, ch := range changes {
		t.Run(ch.name+" changes the digest", func(t *testing.T) {
			c := DefaultConfig()
			tt := &Tutorial{Content: tut.Content, Images: append([]Image(nil), tut.Images...)}
			ch.change(&c, tt)
			got := Digest(c, tt)
			if prev, dup := seen[got]; dup {
				t.Errorf("Digest after changing %s = %q, same as after %s", ch.name, got, prev)
			}
			seen[got] = ch.name
		})
	}
}

// Saving a file without changing it leaves the digest alone; changing one
// byte of the tutorial or of an image on disk does not.
func TestResolveDigestFollowsFiles(t *testing.T) {
	dir, run := digestFixture(t)
	digest := func() string {
		t.Helper()
		d, err := Resolve(run, dir)
		if err != nil {
			t.Fatal(err)
		}
		return d.Digest
	}
	first := digest()
	writeFile(t, dir, "docs/tutorial.md", "# T\n\n![s](img/s.png)\n\n```sh\necho hi\n```\n")
	if got := digest(); got != first {
		t.Errorf("digest after saving the same bytes = %q, want %q", got, first)
	}
	writeFile(t, dir, "docs/img/s.png", "\x89PNG-two")
	second := digest()
	if second == first {
		t.Error("digest unchanged after an image changed")
	}
	writeFile(t, dir, "docs/tutorial.md", "# T\n\n![s](img/s.png)\n\n```sh\necho ho\n```\n")
	if third := digest(); third == second || third == first {
		t.Error("digest unchanged after the tutorial changed")
	}
	writeFile(t, dir, ConfigFileName, `{"tutorial": "docs/tutorial.md", "maxIterations": 5}`)
	fourth := digest()
	writeFile(t, dir, ConfigFileName, "{\n  \"maxIterations\": 5,\n  \"tutorial\": \"docs/tutorial.md\"\n}\n")
	if got := digest(); got != fourth {
		t.Errorf("digest after reformatting smile.json = %q, want %q (only effective values count)", got, fourth)
	}
}
