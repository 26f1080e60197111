package placeholder

import "testing"

// A command whose argument is a placeholder is a syntax template, in any
// language the page names it in; upper-case words commands take as they
// are, and the values of options, are not placeholders.
func TestTemplatePlaceholders(t *testing.T) {
	for command, want := range map[string]bool{
		"git clone REPOSITORIO":                                   true,
		"sudo COMANDO":                                            true,  // an upper-case word where a command goes
		"GREETING = hello":                                        false, // a Makefile's setting
		"awk [OPTION][awk program][ARGUMENT]":                     true,  // optional parts drawn in brackets, no space between
		"[ -f notes.txt ] && echo yes":                            false,
		"git clone [Le nom de votre dépôt git]":                   true, // a capitalised phrase in brackets
		"[[ -n $name ]] && echo set":                              false,
		"echo ${names[Ada Lovelace]}":                             false,
		"ls [abc]*":                                               false,
		"time COMMAND args":                                       true,
		"HEAD /index.html":                                        false,
		"chmod u+s /chemin/vers/fichier":                          true, // "path/to" in French
		"cp a.txt /path/to/backup/":                               true,
		"ls ruta/a/carpeta":                                       true,
		"cp notes.txt /srv/app/data/":                             false,
		"cd path/src":                                             false,
		"chmod ___ notes.txt":                                     true, // a fill-in blank
		"git checkout {commit id}":                                true, // braced words, a few of them
		"git clone {원격 저장소 주소} .":                                 true,
		"{ echo a; echo b; } > both.txt":                          false,
		"echo {1..3} {a,b}":                                       false,
		"chmod u=___,g=r report.txt":                              true,
		"python3 -c 'import pkg.__init__'":                        false,
		"echo ___init___ > x":                                     false,
		"case ESPRESSIONE in\n  PATTERN1)\n    COMANDI1 ;;\nesac": true, // a case on a bare upper-case word
		"case $choice in\n  1) date ;;\nesac":                     false,
		"export STUDENT=‹имя_пользователя>":                       true, // any script, a typographer's bracket
		"mkdir «nom-du-projet»":                                   true,
		"sort <input.txt >sorted.txt":                             false, // redirections
		"cat <<EOF":                                               false,
		"awk '<REGEXP> { action }'":                               true, // upper case inside quotes: a placeholder
		`echo "<b>bold</b>" > page.html`:                          false,
		`cat <<EOF>notes.txt`:                                     false,
		"git add NOMBRE_DEL_ARCHIVO":                              true,
		"git pull REPOSITORIO_REMOTO RAMA":                        true,
		"cmake PATH":                                              true,
		"docker run -e MODE IMAGE":                                true,
		"if [ -f ~/.local ]; then {do_something}; fi":             true,
		"git checkout HEAD":                                       false,
		"git reset --hard ORIG_HEAD":                              false,
		"curl -X POST http://localhost:8080/items":                false,
		"kill -s TERM 42":                                         false,
		"export EDITOR=vim":                                       false,
		"cd /home/anna/projekte  # Pfad anpassen":                 true, // the comment says to adapt it
		"cp site.conf /etc/nginx/  # adjust the path":             true,
		"cd ~/code  # 경로 수정":                                      true,
		"ls -l  # long listing":                                   false,
		"cd src  # change the directory":                          false,
		"mkdir demo  # replace this with your name":               true,
		"sed -i 's/a/b/' f  # replaces a by b":                    false, // the command replaces; the reader need not
		"git commit -m 'change the title'":                        false,
		"echo HELLO WORLD":                                        false,
		"grep ERROR app.log":                                      false,
		"iptables -A INPUT -j ACCEPT":                             false,
		"cat README":                                              false,
		"ls -l /usr/lib":                                          false,
		"make CC=gcc":                                             false,
		"find . -name '*.go' -exec wc -l {} +":                    false,
		"echo {a,b}":                                              false,
		"git log -n 3 HEAD~1":                                     false,
		"git commit -m WIP":                                       false,
	} {
		if got := Template(command) != ""; got != want {
			t.Errorf("placeholder.Template(%q) = %q, want a template: %v", command, Template(command), want)
		}
	}
}

func TestFilled(t *testing.T) {
	for in, want := range map[string]string{
		"export STUDENT=‹имя_пользователя>": "export STUDENT=value",
		"cd <project dir>/src":              "cd value/src",
		"echo {{ name }}":                   "echo value",
		"sort <in.txt >out.txt":             "sort <in.txt >out.txt",
	} {
		if got := Filled(in); got != want {
			t.Errorf("Filled(%q) = %q, want %q", in, got, want)
		}
	}
}
