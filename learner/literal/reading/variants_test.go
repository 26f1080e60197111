package reading

import "testing"

func TestVariantIntro(t *testing.T) {
	for prose, want := range map[string]bool{
		"On Linux or macOS:":                           true,
		"On Windows (Command Prompt):":                 true,
		"Now read it back. On Linux or macOS:":         true,
		"On Windows, in PowerShell:":                   true,
		"For Homebrew users:":                          true,
		"If you are using Windows, run:":               true,
		"macOS:":                                       true,
		"**Windows**":                                  true,
		"Alternatively, you can install it with snap:": true,
		"Open PowerShell as an administrator and list the five largest logs:": false,
		"First, check which shell you are typing into:":                       false,
		"Export the application log to the archive share:":                    false,
		"In the file, add a line:":                                            false,
		"Run it:":                                                             false,
	} {
		if got := VariantIntro(prose); got != want {
			t.Errorf("VariantIntro(%q) = %v, want %v", prose, got, want)
		}
	}
}
