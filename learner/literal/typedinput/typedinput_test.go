package typedinput

import "testing"

func TestWaits(t *testing.T) {
	for cmd, want := range map[string]bool{
		"cat > notes.txt":          true,
		"cat >> notes.txt":         true,
		"cat >notes.txt":           true,
		"cat":                      true,
		"cat -":                    true,
		"tee copy.txt":             true,
		"cat -n > numbered.txt":    true,
		"cat notes.txt":            false,
		"cat a.txt b.txt > c.txt":  false,
		"cat > notes.txt << 'EOF'": false,
		"cat < in.txt > out.txt":   false,
		"echo hi | tee copy.txt":   false,
		"ls | cat":                 false,
		"cat notes.txt # show it":  false,
		"sudo cat /etc/hosts":      false,
		"echo hi > notes.txt":      false,
		"cat > a.txt && cat a.txt": false,
	} {
		if _, got := Waits(cmd); got != want {
			t.Errorf("Waits(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func TestTold(t *testing.T) {
	for text, want := range map[string]bool{
		"Type a few lines, then press Ctrl+D to finish.":        true,
		"Escribe el texto y termina con Ctrl-D.":                true,
		"Beende die Eingabe mit Strg+D.":                        true,
		"入力が終わったら ^D を押します。":                                    true,
		"The shell reads until EOF.":                            true,
		"Save the output into a text file; this overwrites it.": false,
		"Use the cd command to go there.":                       false,
	} {
		if got := Told(text); got != want {
			t.Errorf("Told(%q) = %v, want %v", text, got, want)
		}
	}
}
