package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/smile-loop/smile/spec"
)

// fullConfig sets every smile.json field, enums in mixed case.
const fullConfig = `{
  "tutorial": "docs/quickstart.md",
  "llmProvider": "Claude",
  "maxIterations": 7,
  "timeout": 900,
  "containerImage": "smile-base:latest",
  "studentBehavior": {
    "maxRetriesBeforeHelp": 5,
    "askOnMissingDependency": false,
    "askOnAmbiguousInstruction": true,
    "askOnCommandFailure": true,
    "askOnTimeout": true,
    "timeoutSeconds": 120,
    "patienceLevel": "Medium"
  },
  "container": {"keepOnFailure": true, "keepOnSuccess": false},
  "stateFile": ".smile/state.json",
  "outputDir": "reports"
}
`

// measureLoads times spec.LoadConfig and spec.LoadTutorial, one call per
// sample, in this process (the first call is reported apart: a CLI pays it).
func measureLoads(n int) ([]row, []string, error) {
	dir, err := os.MkdirTemp("", "smile-bench-load-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)

	cfgPath := filepath.Join(dir, spec.ConfigFileName)
	if err := os.WriteFile(cfgPath, []byte(fullConfig), 0o644); err != nil {
		return nil, nil, err
	}
	cfgSamples, err := sample(n, func() error { _, err := spec.LoadConfig(cfgPath); return err })
	if err != nil {
		return nil, nil, fmt.Errorf("load config: %w", err)
	}

	tutPath, size, imgBytes, err := writeTutorial(dir)
	if err != nil {
		return nil, nil, err
	}
	tut, err := spec.LoadTutorial(tutPath)
	if err != nil {
		return nil, nil, err
	}
	distinct := map[string]bool{}
	for _, img := range tut.Images {
		if img.Missing || img.Format == "" {
			return nil, nil, fmt.Errorf("fixture: image %s missing or of no supported format", img.Reference)
		}
		distinct[img.Path] = true
	}
	tutSamples, err := sample(n, func() error { _, err := spec.LoadTutorial(tutPath); return err })
	if err != nil {
		return nil, nil, fmt.Errorf("load tutorial: %w", err)
	}

	rows := []row{
		durationRow("config load (spec.LoadConfig, every field set)", cfgSamples[1:], 100*time.Millisecond),
		durationRow(fmt.Sprintf("tutorial load, %.1f KB with images (spec.LoadTutorial)", float64(size)/1024), tutSamples[1:], 500*time.Millisecond),
	}
	note := fmt.Sprintf("Loads: %d samples each after a first call (first config load %s, first tutorial load %s). "+
		"The tutorial is %d bytes, %d blocks, %d image references to %d files (PNG screenshots and SVG diagrams, %d KB together) read with it.",
		n, dur(cfgSamples[0]), dur(tutSamples[0]), size, len(tut.Blocks), len(tut.Images), len(distinct), imgBytes/1024)
	return rows, []string{note}, nil
}

// sample calls f n+1 times and returns each call's duration, the first one
// (cold) first.
func sample(n int, f func() error) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n+1)
	for range n + 1 {
		t := time.Now()
		if err := f(); err != nil {
			return nil, err
		}
		out = append(out, time.Since(t))
	}
	return out, nil
}

var images = []string{
	"images/terminal.png", "images/architecture.svg", "images/browser.png", "images/settings.png",
	"images/flow.svg", "images/dashboard.png", "images/layers.svg", "images/result.png",
}

// writeTutorial writes a tutorial of just under the 100 KB limit made of
// steps like a real one (prose, commands, a file to create, the expected
// output, now and then a screenshot or a diagram) and its images.
func writeTutorial(dir string) (path string, size, imgBytes int, err error) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i, name := range images {
		var data []byte
		if strings.HasSuffix(name, ".svg") {
			data = diagram(i)
		} else if data, err = screenshot(rng); err != nil {
			return "", 0, 0, err
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", 0, 0, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return "", 0, 0, err
		}
		imgBytes += len(data)
	}
	var md strings.Builder
	md.WriteString("# Build, test and deploy a small web service\n\nThis tutorial takes you from an empty folder to a service running behind a proxy.\n")
	for step := 1; ; step++ {
		s := section(step)
		if md.Len()+len(s) > spec.MaxTutorialBytes-64 {
			break
		}
		md.WriteString(s)
	}
	path = filepath.Join(dir, "tutorial.md")
	return path, md.Len(), imgBytes, os.WriteFile(path, []byte(md.String()), 0o644)
}

func section(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Step %d: configure part %d of the service\n\n", n, n)
	fmt.Fprintf(&b, "In this step you add module `step%d` to the service. It reads its settings from the\n"+
		"environment, validates them and registers a handler. Keep the terminal from the previous step open:\n"+
		"the commands below expect to run in the project folder, with the virtual environment active.\n\n", n)
	if n%3 == 1 {
		img := images[(n/3)%len(images)]
		fmt.Fprintf(&b, "![What you should have after step %d](%s)\n\n", n, img)
	}
	fmt.Fprintf(&b, "```bash\nmkdir -p src/step%d\ncd src/step%d\nexport STEP%d_PORT=%d\n```\n\n", n, n, n, 8000+n)
	fmt.Fprintf(&b, "Create a file named `handler.py`:\n\n```python\nimport os\n\n\ndef settings():\n"+
		"    port = int(os.environ.get(\"STEP%d_PORT\", \"%d\"))\n    if port <= 0:\n        raise ValueError(\"port must be positive\")\n"+
		"    return {\"port\": port, \"name\": \"step%d\"}\n\n\ndef handle(request):\n    return {\"status\": 200, \"body\": settings()[\"name\"]}\n```\n\n", n, 8000+n, n)
	fmt.Fprintf(&b, "Run its check:\n\n```console\n$ python3 -c 'import handler; print(handler.settings()[\"port\"])'\n%d\n```\n\n", 8000+n)
	b.WriteString("> **Note**\n> If the port is taken, pick another one and export it again before you go on.\n")
	return b.String()
}

// screenshot draws a 1280x720 picture with windows and lines of "text", so
// it compresses like a real screenshot rather than a flat colour.
func screenshot(rng *rand.Rand) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	fill := func(r image.Rectangle, c color.RGBA) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				img.SetRGBA(x, y, c)
			}
		}
	}
	fill(img.Bounds(), color.RGBA{245, 245, 245, 255})
	for w := 0; w < 3; w++ {
		x, y := rng.IntN(600), rng.IntN(300)
		win := image.Rect(x, y, x+400+rng.IntN(250), y+250+rng.IntN(150))
		fill(win, color.RGBA{255, 255, 255, 255})
		fill(image.Rect(win.Min.X, win.Min.Y, win.Max.X, win.Min.Y+24), color.RGBA{uint8(rng.IntN(200)), 90, 160, 255})
		for ty := win.Min.Y + 34; ty+8 < win.Max.Y; ty += 14 {
			for tx := win.Min.X + 8; tx < win.Max.X-8; tx += 2 + rng.IntN(3) {
				if rng.IntN(5) > 0 {
					fill(image.Rect(tx, ty, tx+1, ty+8), color.RGBA{40, 40, 40, 255})
				}
			}
		}
	}
	var buf bytes.Buffer
	err := png.Encode(&buf, img)
	return buf.Bytes(), err
}

func diagram(seed int) []byte {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400" viewBox="0 0 800 400">` + "\n")
	for i := range 6 {
		x, y := 20+i*130, 60+(i+seed)%3*100
		fmt.Fprintf(&b, `  <rect x="%d" y="%d" width="110" height="50" rx="6" fill="#e8f0fe" stroke="#1a73e8"/>`+"\n", x, y)
		fmt.Fprintf(&b, `  <text x="%d" y="%d" font-family="sans-serif" font-size="14">component %d</text>`+"\n", x+10, y+30, i+1)
		if i > 0 {
			fmt.Fprintf(&b, `  <line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444" marker-end="url(#arrow)"/>`+"\n", x-20, y+25, x, y+25)
		}
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}
