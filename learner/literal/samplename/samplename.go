// Package samplename tells a stand-in name from a page's own file or
// account. Cheat
// sheets, reference pages and "how to" notes show each form of a command on
// a name that stands for the reader's file: `file.txt`, `dosya.txt`,
// `meuarquivo`, `arquivo1 arquivo2 diretorio1`, `myprogram.py`. A page never
// creates such a file; a reader puts their own in its place. A missing file
// of that kind is no gap in the page, where a name the page carries from step
// to step is. So with users and groups: `chown john:developers` shows the
// form on people the reader puts their own in place of.
package samplename

import (
	"path"
	"regexp"
	"strings"
)

// owner is a possessive or article that leads a stand-in name, in the
// languages pages are written in: my, mi, meu, mon, mein, mio...
var owner = regexp.MustCompile(`^(?:(?:my|your|some|minha|mio|mia|mi|meu|seu|sua|mon|votre|ton|meine|mein|deine|dein|tuo|tua)[_-]?|(?:the|a|an|tu|su|ta|ma|il|le|la|el|o)[_-])`)

// stems are the words that name "a file", "a folder", "a program", "an
// example" or "a repository, at its address" in those languages.
var stems = []string{
	"file", "files", "filename", "fichier", "fichiers", "archivo", "archivos", "arquivo", "arquivos", "datei", "dateien",
	"dosya", "plik", "soubor", "bestand", "tiedosto", "nomefile", "nome_file", "nombre_archivo", "nombre_de_archivo", "nomdufichier", "nom_du_fichier", "nom_de_fichier",
	"nome_do_arquivo", "dateiname",
	"folder", "directory", "dir", "diretorio", "directorio", "carpeta", "dossier", "repertoire", "verzeichnis", "ordner",
	"cartella", "klasor", "dizin", "katalog", "program", "programa", "programme", "script", "example", "exemple",
	"ejemplo", "exemplo", "beispiel", "esempio", "sample", "test", "foo", "bar", "baz", "qux", "demo",
	"project", "projet", "proyecto", "projeto", "projekt", "progetto", "proje", "proiect", "проект",
	"fisier", "fișier", "director", "dosar", "source", "target", "origem", "destino", "origen", "ziel", "quelle", "cible",
	"sorgente", "destinazione", "url", "repo", "repository", "repositorio", "repositório", "depot", "dépôt",
	"файл", "папка", "каталог", "文件", "目录", "ファイル", "フォルダ", "파일", "폴더",
}

// Is reports whether name (a path; its base counts) is a stand-in: after an
// owner word and before a number, an extension or a qualifier, it is one of
// the words for "a file", "a folder", "a program" or "an example".
func Is(name string) bool {
	base := strings.ToLower(path.Base(strings.TrimSuffix(name, "/")))
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	base = strings.TrimRight(base, "0123456789_-")
	return stem(base) || stem(owner.ReplaceAllString(base, ""))
}

// stem: the name is one of the words, or one of the longer ones with a
// short qualifier after it (`arquivolegal`); a short word must be the whole
// name (`dir` is no stand-in in `dirty`).
func stem(base string) bool {
	for _, s := range stems {
		if base == s || len(s) >= 6 && strings.HasPrefix(base, s) && len(base)-len(s) <= 8 {
			return true
		}
	}
	return false
}

// users are the names that stand for "a user" or "a group" in examples:
// the usual placeholder people, and the words for user and group.
var users = map[string]bool{
	"john": true, "jane": true, "alice": true, "bob": true, "carol": true, "dave": true, "joe": true, "user": true, "user1": true,
	"user2": true, "username": true, "usuario": true, "usuario1": true, "utilisateur": true, "benutzer": true, "utente": true,
	"kullanici": true, "uzytkownik": true, "uzivatel": true, "utilizator": true, "gebruiker": true, "пользователь": true,
	"group": true, "groupname": true, "grupo": true, "groupe": true, "gruppe": true, "gruppo": true, "grup": true,
	"developers": true, "devs": true, "dev": true, "staff": true, "team": true, "myuser": true, "mygroup": true, "newuser": true,
	"xxx": true, "xxxx": true, "yyy": true, "testuser": true, "someuser": true,
}

// User reports whether name is a stand-in user or group (`john`,
// `username`, `developers`), or `user:group` made of two.
func User(name string) bool {
	u, g, two := strings.Cut(strings.ToLower(name), ":")
	return (users[u] || two && u == "" && g != "") && (!two || g == "" || users[g])
}

// accountError is a system tool's complaint that a user or group does not
// exist, with the name it was given.
var accountError = regexp.MustCompile(`(?m)(?:invalid (?:user|group|owner)|no such (?:user|group)|(?:user|group) does not exist)[^‘'"\n]*[‘'"]([^’'"\n]+)[’'"]|[‘'"]([^’'"\n]+)[’'"]: no such (?:user|group)|(?:user|group) [‘'"]([^’'"\n]+)[’'"] does not exist|\buser (\S+) does not exist`)

// MissingAccount is the user or group a command's output says does not
// exist, "" when it says none is missing.
func MissingAccount(output string) string {
	m := accountError.FindStringSubmatch(output)
	for _, g := range m[min(1, len(m)):] {
		if g != "" {
			return g
		}
	}
	return ""
}
