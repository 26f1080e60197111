package literal

import "testing"

func TestProseDestination(t *testing.T) {
	tests := []struct {
		prose  string
		want   string
		append bool
	}{
		{"Create a file named `app.py`:", "app.py", false},
		{"Save the following as `list.txt`:", "list.txt", false},
		{"Create `settings.conf` with:", "settings.conf", false},
		{"Write this to `notes.md`", "notes.md", false},
		{"Add the following to `config.yaml`:", "config.yaml", true},
		{"Put this in a file called hello.sh:", "hello.sh", false},
		{"In `src/main.go`, write:", "src/main.go", false},
		{"In `config.yaml`, add:", "config.yaml", true},
		{"Create a new file called `Dockerfile` in the project folder:", "Dockerfile", false},
		{"Now create an `index.html` file:", "index.html", false},
		{"Next, in your editor, create a new file in the project root named `server.js`:", "server.js", false},
		{"Append this line to the end of `~/.bashrc`:", "~/.bashrc", true},
		{"Paste the following into `src/app.ts`.", "src/app.ts", false},
		{"Replace the contents of `main.py` with:", "main.py", false},
		{"Save it as app.py, then run it.", "app.py", false},
		{"Create a file named `a.txt` that lists the files, then save it as `b.txt`:", "b.txt", false},
		// Not destinations.
		{"Run `app.py`:", "", false},
		{"Execute `python app.py` and look at the output:", "", false},
		{"The file `app.py` prints a greeting:", "", false},
		{"Open `config.yaml` and look for the port:", "", false},
		{"Create a directory for the project:", "", false},
		{"Add `jq` to your PATH:", "", false},
		{"Now write the code:", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.prose, func(t *testing.T) {
			got, ok := proseDestination(tt.prose)
			if ok != (tt.want != "") || got.Path != tt.want || got.Append != tt.append {
				t.Errorf("proseDestination(%q) = %+v, %v; want %q append=%v", tt.prose, got, ok, tt.want, tt.append)
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
			got, ok := infoDestination(tt.info)
			if ok != (tt.want != "") || got.Path != tt.want {
				t.Errorf("infoDestination(%q) = %+v, %v; want %q", tt.info, got, ok, tt.want)
			}
			if lang := infoLang(tt.info); lang != tt.lang {
				t.Errorf("infoLang(%q) = %q, want %q", tt.info, lang, tt.lang)
			}
		})
	}
}
