package literal

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestScanCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../test/corpus/*/tutorial.md")
	files2, _ := filepath.Glob("../../test/e2e/testdata/*/tutorial.md")
	files = append(files, files2...)
	files = append(files, "../../examples/quickstart/tutorial.md")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		out := walkPage(t, string(data), scriptedHands{})
		c := out.Coverage
		mark := ""
		if c.Below(0.5) {
			mark = "  <<<<<"
		}
		fmt.Printf("%-60s %-16s %s %3d%%%s\n", f, out.Status, c.Cell(), c.Percent(), mark)
	}
}
