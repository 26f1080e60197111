package chosenname

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

// A database the first form opens and a dump file a later form writes are
// the reader's names; a placeholder one letter off the dump's is filled with
// its own word, so its slip fails as it would for a reader; the page itself
// is left as it is.
func TestFillChosenNames(t *testing.T) {
	tut := spectest.Tutorial(t, "# Notes\n\n```bash\nsqlite3 <db>.sqlite3\n```\n\n```bash\nsqlite3 <db>.sqlite3 .dump > <dump_file>.sql\n```\n\n```bash\nsqlite3 <db>.sqlite3 < <dump_fille>.sql\n```\n\n```bash\ncurl <url> -o <page>.html\n```\n")
	filled, fills := Fill(tut)
	var got []string
	for _, b := range filled.Blocks {
		if b.Line > 2 {
			got = append(got, strings.TrimSpace(b.Text))
		}
	}
	want := []string{"sqlite3 db.sqlite3", "sqlite3 db.sqlite3 .dump > dump_file.sql", "sqlite3 db.sqlite3 < dump_fille.sql", "curl <url> -o <page>.html"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("filled\n  %q\nwant\n  %q", got, want)
	}
	if len(fills) != 3 || fills[0].Line != 4 || fills[2].Line != 12 || fills[2].Maker != 4 {
		t.Errorf("fills %+v, want lines 4, 8 and 12, each with the database made at line 4", fills)
	}
	if !strings.Contains(tut.Blocks[1].Text, "<db>") {
		t.Errorf("Fill changed the page itself: %q", tut.Blocks[1].Text)
	}
}

func TestWord(t *testing.T) {
	for in, want := range map[string]string{"db": "db", "nombre_del_archivo": "nombre_del_archivo", "имя": "name", "my file": "myfile"} {
		if got := word(in); got != want {
			t.Errorf("word(%q) = %q, want %q", in, got, want)
		}
	}
}
