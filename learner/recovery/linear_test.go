package recovery

import (
	"strings"
	"testing"
	"time"
)

// TestLongFence: a fence of any length is read, where a regexp counting the
// fence's length panicked past 1000 backticks.
func TestLongFence(t *testing.T) {
	for _, n := range []int{3, 999, 1001, 5000} {
		t.Run("fence"+itoaTest(n), func(t *testing.T) {
			fence := strings.Repeat("`", n)
			text := "Answer:\n" + fence + "json\n{\"status\":\"completed\"}\n" + fence + "\n"
			obj, method, err := Object(text, nil)
			if err != nil || obj["status"] != "completed" || method != MethodFence {
				t.Fatalf("Object = %v, %q, %v; want the fenced object", obj, method, err)
			}
		})
	}
}

// TestFenceNeedsFullLength: a shorter fence inside a longer one does not
// close it, so the block keeps its inner example.
func TestFenceNeedsFullLength(t *testing.T) {
	text := "````\n```\n{\"a\":1}\n```\n````\n"
	blocks := fencedBlocks(text)
	if len(blocks) != 1 || !strings.Contains(blocks[0], "```\n{\"a\":1}\n```") {
		t.Fatalf("fencedBlocks = %q, want one block holding the inner fence", blocks)
	}
}

func itoaTest(n int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + func() string {
		b := []byte{}
		for n > 0 || len(b) == 0 {
			b = append([]byte{byte('0' + n%10)}, b...)
			n /= 10
		}
		return string(b)
	}())
}

// hostile are inputs that made the repairs quadratic: every brace opens an
// object nothing closes, or every brace closes at once.
func hostile(size int) map[string]string {
	rep := func(s string) string { return strings.Repeat(s, size/len(s)+1)[:size] }
	return map[string]string{
		"unclosed-keys":  rep(`{"a":`),
		"open-braces":    rep("{"),
		"open-fences":    rep("```\n{\"a\":"),
		"quotes":         rep(`{"a":"`),
		"closed-objects": rep(`{"a":1}`),
		"long-fence":     strings.Repeat("`", size/2) + "\n" + rep(`{"a":`)[:size/2],
	}
}

// TestLinearTime is a sanity bound only (the benchmark is the measurement):
// one MiB of hostile input is parsed in well under a second where it took
// minutes. The bound is loose so that a loaded machine (2 cores running the
// container tests beside it took 2.7 s) does not fail it; quadratic repairs
// still take minutes.
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	for name, in := range hostile(1 << 20) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, _ = Student(in)
			_, _ = Mentor(in)
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("Student+Mentor on 1 MiB took %v", d)
			}
		})
	}
}

// BenchmarkStudent measures Student on 1 MiB of each hostile input.
func BenchmarkStudent(b *testing.B) {
	for name, in := range hostile(1 << 20) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for i := 0; i < b.N; i++ {
				_, _ = Student(in)
			}
		})
	}
}

// FuzzFencedBlocks: any text, any fence length, never a panic, and every
// block is a part of the text.
func FuzzFencedBlocks(f *testing.F) {
	for _, s := range []string{"```json\n{}\n```", "~~~~\n```\n~~~~", strings.Repeat("`", 1200) + "\nx\n" + strings.Repeat("`", 1200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range fencedBlocks(s) {
			if !strings.Contains(s, b) {
				t.Fatalf("block %q is not in the text", b)
			}
		}
	})
}

// FuzzCloseTruncated: the repair never panics and keeps the text it was
// given as its prefix, up to a dropped dangling tail.
func FuzzCloseTruncated(f *testing.F) {
	for _, s := range []string{`{"a":`, `{"a":[1,"b`, `{"a":"\`, `{"a":tru`, `{"k"`, `{{{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := closeTruncated(s)
		_ = lenient(out)
		if len(s) > 0 && len(out) == 0 && s[0] == '{' {
			t.Fatalf("closeTruncated(%q) lost the opening brace", s)
		}
	})
}
