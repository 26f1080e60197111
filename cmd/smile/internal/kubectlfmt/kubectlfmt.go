// Package kubectlfmt prints things the way kubectl does, so SMILE's get and
// describe read like kubectl's: Title Case keys with nested maps indented
// (describe), and ages as the AGE column writes them (45s, 5m12s, 2d3h).
package kubectlfmt

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Map prints a map (a run's spec) with Title Case keys, nested maps indented.
func Map(w io.Writer, indent int, m map[string]any) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if sub, ok := m[k].(map[string]any); ok {
			fmt.Fprintf(w, "%s%s:\n", strings.Repeat("  ", indent), TitleCase(k))
			Map(w, indent+1, sub)
			continue
		}
		fmt.Fprintf(w, "%s%s:\t%v\n", strings.Repeat("  ", indent), TitleCase(k), m[k])
	}
}

// acronyms are the words kubectl describe prints in capitals.
var acronyms = map[string]string{"Url": "URL", "Api": "API", "Usd": "USD", "Id": "ID", "Uid": "UID", "Llm": "LLM"}

// TitleCase turns a camelCase key into Title Case words: maxIterations ->
// Max Iterations, baseUrl -> Base URL.
func TitleCase(s string) string {
	var words []string
	start := 0
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			words = append(words, s[start:i])
			start = i
		}
	}
	words = append(words, s[start:])
	for i, w := range words {
		if w == "" {
			continue
		}
		w = strings.ToUpper(w[:1]) + w[1:]
		if a, ok := acronyms[w]; ok {
			w = a
		}
		words[i] = w
	}
	return strings.Join(words, " ")
}

// Age prints a duration the way kubectl's AGE column does:
// 45s, 5m12s, 42m, 3h4m, 20h, 2d3h, 40d, 2y10d.
func Age(d time.Duration) string {
	if seconds := int(d.Seconds()); seconds < -1 {
		return "<invalid>"
	} else if seconds < 0 {
		return "0s"
	} else if seconds < 60*2 {
		return fmt.Sprintf("%ds", seconds)
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		s := int(d/time.Second) % 60
		if s == 0 {
			return fmt.Sprintf("%dm", minutes)
		}
		return fmt.Sprintf("%dm%ds", minutes, s)
	} else if minutes < 60*3 {
		return fmt.Sprintf("%dm", minutes)
	}
	hours := int(d / time.Hour)
	if hours < 8 {
		m := int(d/time.Minute) % 60
		if m == 0 {
			return fmt.Sprintf("%dh", hours)
		}
		return fmt.Sprintf("%dh%dm", hours, m)
	} else if hours < 48 {
		return fmt.Sprintf("%dh", hours)
	} else if hours < 24*8 {
		h := hours % 24
		if h == 0 {
			return fmt.Sprintf("%dd", hours/24)
		}
		return fmt.Sprintf("%dd%dh", hours/24, h)
	} else if hours < 24*365*2 {
		return fmt.Sprintf("%dd", hours/24)
	} else if hours < 24*365*8 {
		dy := int(hours/24) % 365
		if dy == 0 {
			return fmt.Sprintf("%dy", hours/24/365)
		}
		return fmt.Sprintf("%dy%dd", hours/24/365, dy)
	}
	return fmt.Sprintf("%dy", int(hours/24/365))
}
