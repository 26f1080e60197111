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

func TestUserAndMissingAccount(t *testing.T) {
	for out, want := range map[string]string{
		"chown: invalid user: ‘john:developers’\n":                                               "john:developers",
		"groups: ‘username’: no such user\n":                                                     "username",
		"usermod: group 'developers' does not exist":                                             "developers",
		"chgrp: invalid group: ‘devs’":                                                           "devs",
		"su: user ali does not exist or the user entry does not contain all the required fields": "ali",
		"ls: cannot access 'x': No such file or directory":                                       "",
	} {
		if got := MissingAccount(out); got != want {
			t.Errorf("MissingAccount(%q) = %q, want %q", out, got, want)
		}
	}
	for name, want := range map[string]bool{"john": true, "john:developers": true, "username": true, "ali": false, "www-data": false, "john:www-data": false, ":developers": true, ":www-data": false} {
		if got := User(name); got != want {
			t.Errorf("User(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestStandInsInMoreLanguages(t *testing.T) {
	for _, n := range []string{"votre_nom_de_fichier.txt", "ton_fichier.csv", "tuo_file.txt", "mio_file.txt", "nome_do_arquivo.txt", "deine_datei.txt"} {
		if !Is(n) {
			t.Errorf("Is(%q) = false, want a stand-in", n)
		}
	}
	for _, n := range []string{"notes.txt", "votes.csv", "tonic.py"} {
		if Is(n) {
			t.Errorf("Is(%q) = true, want the page's own name", n)
		}
	}
	if !User("xxx") || User("alex") {
		t.Error("User: xxx stands for a user, alex is a name")
	}
}
