package samplename

import "testing"

func TestIs(t *testing.T) {
	for name, want := range map[string]bool{
		"file.txt":        true,
		"dosya.txt":       true,
		"meuarquivolegal": true,
		"arquivo1":        true,
		"diretorio1":      true,
		"myprogram.py":    true,
		"/chemin/fichier": true,
		"nome_file":       true,
		"datei2.txt":      true,
		"test.sh":         true,
		"myproject/":      true,
		"notes.txt":       false,
		"profile":         false,
		"Makefile":        false,
		"survey.db":       false,
		"app.py":          false,
		"greeting.sh":     false,
		"config.yaml":     false,
		"filter.awk":      false,
		"dirty.txt":       false,
		"testimonials.md": false,
	} {
		if got := Is(name); got != want {
			t.Errorf("Is(%q) = %v, want %v", name, got, want)
		}
	}
}
