package servers

import "testing"

func TestKnown(t *testing.T) {
	for cmd, want := range map[string]bool{"flask run": true, "npm run dev": true, "redis-server": true, "python3 -m http.server 8000": true,
		"npm install": false, "redis-cli ping": false, "python3 app.py": false} {
		if got := Known(cmd); got != want {
			t.Errorf("Known(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func TestUpText(t *testing.T) {
	for out, want := range map[string]bool{" * Running on http://127.0.0.1:5000": true, "Listening on port 3000": true, "Press CTRL+C to quit": true, "added 3 packages": false} {
		if got := UpText.MatchString(out); got != want {
			t.Errorf("UpText(%q) = %v, want %v", out, got, want)
		}
	}
}
