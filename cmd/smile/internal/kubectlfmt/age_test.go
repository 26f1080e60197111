package kubectlfmt

import (
	"testing"
	"time"
)

// The cases are kubectl's AGE column (k8s.io/apimachinery's
// duration.Age) at and around each of its boundaries.
func TestAge(t *testing.T) {
	const day, year = 24 * time.Hour, 365 * 24 * time.Hour
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-3 * time.Second, "<invalid>"},
		{-2 * time.Second, "<invalid>"},
		{-1500 * time.Millisecond, "0s"}, // clock skew under 2s is "now"
		{-time.Second, "0s"},
		{0, "0s"},
		{999 * time.Millisecond, "0s"},
		{time.Second, "1s"},
		{45 * time.Second, "45s"},
		{70 * time.Second, "70s"},
		{119 * time.Second, "119s"},
		{120 * time.Second, "2m"},
		{190 * time.Second, "3m10s"},
		{5*time.Minute + 12*time.Second, "5m12s"},
		{9*time.Minute + 59*time.Second, "9m59s"},
		{10 * time.Minute, "10m"},
		{10*time.Minute + 59*time.Second, "10m"},
		{42 * time.Minute, "42m"},
		{70 * time.Minute, "70m"},
		{179 * time.Minute, "179m"},
		{180 * time.Minute, "3h"},
		{3*time.Hour + 4*time.Minute, "3h4m"},
		{7*time.Hour + 59*time.Minute, "7h59m"},
		{8 * time.Hour, "8h"},
		{20 * time.Hour, "20h"},
		{47 * time.Hour, "47h"},
		{48 * time.Hour, "2d"},
		{49 * time.Hour, "2d1h"},
		{2*day + 3*time.Hour, "2d3h"},
		{7*day + 23*time.Hour, "7d23h"},
		{8*day + 2*time.Hour, "8d"},
		{40 * day, "40d"},
		{367 * day, "367d"},
		{729 * day, "729d"},
		{2 * year, "2y"},
		{2*year + 25*time.Hour, "2y1d"},
		{2*year + 10*day, "2y10d"},
		{8*year - day, "7y364d"},
		{8*year + 2*time.Hour, "8y"},
		{30 * year, "30y"},
	}
	for _, tt := range tests {
		t.Run(tt.d.String(), func(t *testing.T) {
			if got := Age(tt.d); got != tt.want {
				t.Errorf("Age(%v) = %q, want %q", tt.d, got, tt.want)
			}
		})
	}
}
