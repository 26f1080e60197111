package gate

import (
	"testing"

	"github.com/smile-loop/smile/status"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    Gate
		wantErr bool
	}{
		{"critical", Gate{Min: status.SeverityCritical}, false},
		{"major", Gate{Min: status.SeverityMajor}, false},
		{"minor", Gate{Min: status.SeverityMinor}, false},
		{"none", Gate{}, false},
		{"major,environment", Gate{Min: status.SeverityMajor, Environment: true}, false},
		{"environment, critical", Gate{Min: status.SeverityCritical, Environment: true}, false},
		{"environment", Gate{Min: status.SeverityMinor, Environment: true}, false},
		{"none,environment", Gate{Environment: true}, false},
		{"major,minor", Gate{}, true},
		{"", Gate{}, true},
		{"warning", Gate{}, true},
		{"all", Gate{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("Parse(%q) = %+v, %v; want %+v, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}
