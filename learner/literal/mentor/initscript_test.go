package mentor

import "testing"

func TestSystemctlStart(t *testing.T) {
	for cmd, want := range map[string]string{
		"sudo systemctl start redis":             "redis",
		"systemctl restart nginx.service":        "nginx",
		"sudo systemctl enable --now postgresql": "postgresql",
		"systemctl status redis":                 "",
		"systemctl --user start app":             "",
		"sudo systemctl enable redis":            "",
		"service redis start":                    "",
	} {
		if got := systemctlStart(cmd); got != want {
			t.Errorf("systemctlStart(%q) = %q, want %q", cmd, got, want)
		}
	}
}
