package destination

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/learner/literal/codelang"
)

func TestProseDestination(t *testing.T) {
	tests := []struct {
		prose  string
		want   string
		append bool
	}{
		{"Create a file named `app.py`:", "app.py", false},
		{"Makefile 文件语法 文件名为 Makefile", "Makefile", false},
		{"With Node.js installed, create a file named `cli.js`:", "cli.js", false},
		{"Save the following with Node.js:", "", false},
		{"The file name is `hello.txt`.", "hello.txt", false},
		{"Nom du fichier : notes.txt", "notes.txt", false},
		{"ファイル名は `main.rb` です", "main.rb", false},
		{"Save the following as `list.txt`:", "list.txt", false},
		{"Create `settings.conf` with:", "settings.conf", false},
		{"Write this to `notes.md`", "notes.md", false},
		{"Add the following to `config.yaml`:", "config.yaml", true},
		{"Aggiungiamo le seguenti righe nel file ~/.ssh/config per usare la chiave", "~/.ssh/config", true},
		{"Ajoutez cette ligne au fichier ~/.bashrc :", "~/.bashrc", true},
		{"Füge die Zeile zur Datei config.ini hinzu:", "config.ini", true},
		{"Aggiungi la cartella al PATH.", "", false},
		{"Put this in a file called hello.sh:", "hello.sh", false},
		{"In `src/main.go`, write:", "src/main.go", false},
		{"In `config.yaml`, add:", "config.yaml", true},
		{"Create a new file called `Dockerfile` in the project folder:", "Dockerfile", false},
		{"Now create an `index.html` file:", "index.html", false},
		{"Next, in your editor, create a new file in the project root named `server.js`:", "server.js", false},
		{"Append this line to the end of `~/.bashrc`:", "~/.bashrc", true},
		{"Paste the following into `src/app.ts`.", "src/app.ts", false},
		{"Replace the contents of `main.py` with:", "main.py", false},
		{"Into main.go, at the top of the file, paste the following package declaration.", "main.go", true},
		{"Into `src/app.js`, copy the handler below:", "src/app.js", true},
		{"Into the file `notes.txt`, just beneath the title, paste this line:", "notes.txt", true},
		{"Copy the following code into `server.py`:", "server.py", false},
		{"Paste the following code into your greetings.go file and save the file.", "greetings.go", false},
		{"Save it as app.py, then run it.", "app.py", false},
		{"Create a file named `a.txt` that lists the files, then save it as `b.txt`:", "b.txt", false},
		{"Create a file named **server.go**:", "server.go", false},
		{"Put the rules in a file called _Makefile_:", "Makefile", false},
		{"Edit `app.py` and add a route:", "app.py", true},
		{"Open `settings.toml` and append these lines:", "settings.toml", true},
		{"Open `app.py` and replace everything with:", "app.py", false},
		{"Update `index.html` so it reads:", "index.html", false},
		{"- a file called `README.md` with a title:", "README.md", false},
		// Not destinations.
		{"Create a *new* folder:", "", false},
		{"Open `app.py` and look at the line with the port:", "", false},
		{"Run `app.py`:", "", false},
		{"Execute `python app.py` and look at the output:", "", false},
		{"The file `app.py` prints a greeting:", "", false},
		{"Open `config.yaml` and look for the port:", "", false},
		{"Create a directory for the project:", "", false},
		{"Add `jq` to your PATH:", "", false},
		{"Now write the code:", "", false},
		{"Into main.go, the server's entry point, we will later add a route.", "", false},
		{"Beneath the package declaration, paste the following function.", "", false},
		{"Go into the `src` folder and copy the path:", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.prose, func(t *testing.T) {
			got, ok := InProse(tt.prose)
			if ok != (tt.want != "") || got.Path != tt.want || got.Append != tt.append {
				t.Errorf("InProse(%q) = %+v, %v; want %q append=%v", tt.prose, got, ok, tt.want, tt.append)
			}
		})
	}
}

func TestCaptionDestination(t *testing.T) {
	tests := []struct{ paragraph, want string }{
		{"`app.py`", "app.py"},
		{"**hello.go**", "hello.go"},
		{"*src/main.rs*", "src/main.rs"},
		{"_makefile_", "makefile"},
		{"Filename: src/main.rs", "src/main.rs"},
		{"File: `conf/app.ini`", "conf/app.ini"},
		{`<span class="filename">Filename: src/lib.rs</span>`, "src/lib.rs"},
		{"Dockerfile:", "Dockerfile"},
		{"In the `test/test.bats`", "test/test.bats"},
		{"Dans le fichier `app.py` :", "app.py"},
		{"Im `Makefile`:", "Makefile"},
		// Not captions.
		{"In the beginning", ""},
		{"In `npm`", ""},
		{"`npm`", ""},
		{"*Important*", ""},
		{"Run `app.py`", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.paragraph, func(t *testing.T) {
			got, ok := InCaption(tt.paragraph)
			if ok != (tt.want != "") || got.Path != tt.want {
				t.Errorf("InCaption(%q) = %+v, %v; want %q", tt.paragraph, got, ok, tt.want)
			}
		})
	}
}

func TestHTMLDestination(t *testing.T) {
	tests := []struct{ html, want string }{
		{`<Listing file-name="src/main.rs">`, "src/main.rs"},
		{`<div data-filename="app.py">`, "app.py"},
		{`<CodeGroup title="Setup">`, ""},
		{`</Listing>`, ""},
		{`<!-- file="x.py" -->`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.html, func(t *testing.T) {
			got, ok := InHTML(tt.html)
			if ok != (tt.want != "") || got.Path != tt.want {
				t.Errorf("InHTML(%q) = %+v, %v; want %q", tt.html, got, ok, tt.want)
			}
		})
	}
}

func TestInfoDestination(t *testing.T) {
	tests := []struct {
		info, want, lang string
	}{
		{`python title="app.py"`, "app.py", "python"},
		{`python title='app.py'`, "app.py", "python"},
		{"app.py", "app.py", ""},
		{"python:app.py", "app.py", "python"},
		{"{.python file=app.py}", "app.py", "python"},
		{"yaml filename=config/app.yaml", "config/app.yaml", "yaml"},
		{"js path=src/index.js", "src/index.js", "js"},
		{"src/main.go", "src/main.go", ""},
		// Languages, not files.
		{"python", "", "python"},
		{"{.python}", "", "python"},
		{"bash", "", "bash"},
		{"c++", "", "c++"},
		{"", "", ""},
		{"json5", "", "json5"},
	}
	for _, tt := range tests {
		t.Run(tt.info, func(t *testing.T) {
			got, ok := InInfo(tt.info)
			if ok != (tt.want != "") || got.Path != tt.want {
				t.Errorf("InInfo(%q) = %+v, %v; want %q", tt.info, got, ok, tt.want)
			}
			if lang := codelang.InfoLang(tt.info); lang != tt.lang {
				t.Errorf("infoLang(%q) = %q, want %q", tt.info, lang, tt.lang)
			}
		})
	}
}

// A URL's path or a host's is no file of the reader's; a relative path and
// a file name around it still are.
func TestFilesNamedSkipsAddresses(t *testing.T) {
	all := func(string) bool { return true }
	for text, want := range map[string]string{
		"git remote add origin https://github.com/someone/repo.git and list it": "",
		"see github.com/someone/notes.txt for more":                             "",
		"save it as src/app.py, next to https://example.org/app.py":             "src/app.py",
		"write `notes/todo.txt`":                                                "notes/todo.txt",
	} {
		if got := strings.Join(FilesNamed(text, all), ","); got != want {
			t.Errorf("FilesNamed(%q) = %q, want %q", text, got, want)
		}
	}
}
