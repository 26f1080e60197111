package mentor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/learner/literal/prereq"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
)

// Error texts of the tools a tutorial runs when the container has no
// network, no Docker daemon, no KVM or no systemd; and look-alikes that are
// the tutorial's own problem.
func TestClassifyEnvironment(t *testing.T) {
	tests := []struct {
		name, command, output string
		exit                  int
		want                  status.Category
		lacks                 string
	}{
		{"curl cannot resolve", "curl -fsSL https://example.org/x.sh", "curl: (6) Could not resolve host: example.org\n", 6, status.CategoryEnvironment, LacksNetwork},
		{"git clone cannot resolve", "git clone https://github.com/a/b", "Cloning into 'b'...\nfatal: unable to access 'https://github.com/a/b/': Could not resolve host: github.com\n", 128, status.CategoryEnvironment, LacksNetwork},
		{"glibc name or service", "ping -c1 example.org", "ping: example.org: Name or service not known\n", 2, status.CategoryEnvironment, LacksNetwork},
		{"temporary failure in name resolution", "python3 fetch.py", "urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>\n", 1, status.CategoryEnvironment, LacksNetwork},
		{"wget cannot resolve", "wget https://example.org/a.tgz", "Resolving example.org... failed: Name or service not known.\nwget: unable to resolve host address 'example.org'\n", 4, status.CategoryEnvironment, LacksNetwork},
		{"a compiler without libc6-dev", "make blah", "/usr/bin/ld: cannot find Scrt1.o: No such file or directory\ncollect2: error: ld returned 1 exit status\n", 2, status.CategoryEnvironment, lacksLibcDev},
		{"pip outside a venv (PEP 668)", "pip install requests", "error: externally-managed-environment\n\n× This environment is externally managed\n", 1, status.CategoryEnvironment, lacksPipOutsideVenv},
		{"network unreachable", "curl http://10.1.2.3/", "curl: (7) Failed to connect to 10.1.2.3 port 80: Network is unreachable\n", 7, status.CategoryEnvironment, LacksNetwork},
		{"remote connection refused", "curl http://api.example.org:8080/", "curl: (7) Failed to connect to api.example.org port 8080: Connection refused\n", 7, status.CategoryEnvironment, LacksNetwork},
		{"pip no version", "pip install flask", "ERROR: Could not find a version that satisfies the requirement flask (from versions: none)\nERROR: No matching distribution found for flask\n", 1, status.CategoryEnvironment, LacksNetwork},
		{"npm network", "npm install express", "npm ERR! code EAI_AGAIN\nnpm ERR! errno EAI_AGAIN\nnpm ERR! request to https://registry.npmjs.org/express failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org\nnpm ERR! network This is a problem related to network connectivity.\n", 1, status.CategoryEnvironment, LacksNetwork},
		{"cargo failed to download", "cargo build", "    Updating crates.io index\nerror: failed to download from `https://index.crates.io/config.json`\n", 101, status.CategoryEnvironment, LacksNetwork},
		{"go dial tcp timeout", "go mod download", "go: github.com/a/b@v1.0.0: Get \"https://proxy.golang.org/github.com/a/b/@v/v1.0.0.mod\": dial tcp 142.250.0.1:443: i/o timeout\n", 1, status.CategoryEnvironment, LacksNetwork},
		{"go proxyconnect", "go get example.com/m", "go: example.com/m: Get \"https://proxy.golang.org/...\": proxyconnect tcp: dial tcp 10.0.0.1:3128: connect: connection refused\n", 1, status.CategoryEnvironment, LacksNetwork},
		{"gem cannot reach", "gem install rails", "ERROR:  Could not find a valid gem 'rails' (>= 0), here is why:\n          Unable to download data from https://rubygems.org/ - no such name (https://rubygems.org/specs.4.8.gz)\n", 2, status.CategoryEnvironment, LacksNetwork},
		{"docker daemon", "docker run hello-world", "docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?.\n", 125, status.CategoryEnvironment, lacksDocker},
		{"kvm missing", "qemu-system-x86_64 -enable-kvm", "Could not access KVM kernel module: No such file or directory\nqemu-system-x86_64: failed to initialize kvm: No such file or directory\nopen /dev/kvm: No such file or directory\n", 1, status.CategoryEnvironment, lacksKVM},
		{"systemctl without systemd", "sudo systemctl start nginx", "System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down\n", 1, status.CategoryEnvironment, lacksSystemd},
		{"systemctl missing from the image", "sudo systemctl start redis", "/tmp/smile-session-1/bin/sudo: 12: exec: systemctl: not found\n", 127, status.CategoryEnvironment, lacksSystemd},
		{"psql with no server", "psql -d lessons", "psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: No such file or directory\n\tIs the server running locally and accepting connections on that socket?\n", 2, status.CategoryEnvironment, lacksDatabaseServer},
		{"mysql with no server", "mysql -u root", "ERROR 2002 (HY000): Can't connect to local MySQL server through socket '/run/mysqld/mysqld.sock' (2)\n", 1, status.CategoryEnvironment, lacksDatabaseServer},
		// The tutorial's own server not running is not the environment.
		{"localhost refused", "curl http://localhost:8080/", "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused\n", 7, status.CategoryCommandFailure, ""},
		{"127.0.0.1 refused", "curl 127.0.0.1:5000", "curl: (7) Failed to connect to 127.0.0.1 port 5000: Connection refused\n", 7, status.CategoryCommandFailure, ""},
		// A missing command stays a missing dependency even if it is docker.
		{"docker not installed", "docker ps", "bash: line 1: docker: command not found\n", 127, status.CategoryMissingDependency, "docker"},
		{"plain failure", "grep x y.txt", "", 1, status.CategoryCommandFailure, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(tt.command, tt.exit, tt.output, false)
			if got.Category != tt.want || (tt.lacks != "" && got.Subject != tt.lacks) {
				t.Fatalf("classify = %+v, want %s lacking %q", got, tt.want, tt.lacks)
			}
			if tt.want == status.CategoryEnvironment && (got.ErrorLine == "" || !strings.Contains(tt.output, got.ErrorLine)) {
				t.Errorf("error line %q is not a line of the output", got.ErrorLine)
			}
		})
	}
}

func TestEnvironmentTexts(t *testing.T) {
	tests := []struct {
		name, subject, problem, fix string
	}{
		{"prerequisite", prerequisiteSubject(prereq.Prerequisite{Tool: "go", Line: 7}),
			"the image lacks `go`, which the tutorial lists as a prerequisite (line 7): bash: go: command not found", "`containerImage`"},
		// No line says to have it: none is cited.
		{"implied prerequisite", prerequisiteSubject(prereq.Prerequisite{Tool: "go", Implied: prereq.ImpliedByTitle}),
			"the image lacks `go`, which the tutorial assumes its reader has (its title names it): bash: go: command not found", "assumes its reader has it"},
		{"network", LacksNetwork, "the container lacks network access: bash: go: command not found", "`studentNetwork"},
		{"docker", lacksDocker, "the container lacks a running Docker daemon", "no setting provides one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errLine := "bash: go: command not found"
			if tt.name == "docker" {
				errLine = ""
			}
			if got := Problem(status.CategoryEnvironment, tt.subject, errLine, "go build", 127, 60); got != tt.problem {
				t.Errorf("problem = %q\nwant      %q", got, tt.problem)
			}
			if got := SuggestedFix(status.CategoryEnvironment, 12, tt.subject); !strings.Contains(got, tt.fix) || !strings.Contains(got, "12") {
				t.Errorf("fix = %q, want it to name %s and line 12", got, tt.fix)
			}
		})
	}
}

func TestPrerequisiteFailure(t *testing.T) {
	prereqs := []prereq.Prerequisite{{Tool: "go", Line: 5}, {Tool: "node", Line: 6}, {Tool: "cargo", Implied: prereq.ImpliedByCommands}, {Tool: "psql", Implied: prereq.ImpliedByTitle}, {Tool: "python", Line: 7}}
	tests := []struct {
		name string
		in   Failure
		want status.Category
	}{
		{"listed tool", Failure{Category: status.CategoryMissingDependency, Subject: "go"}, status.CategoryEnvironment},
		{"implied tool", Failure{Category: status.CategoryMissingDependency, Subject: "cargo"}, status.CategoryEnvironment},
		{"unlisted tool", Failure{Category: status.CategoryMissingDependency, Subject: "jq"}, status.CategoryMissingDependency},
		// Debian has no `python` even with Python installed: the page's gap.
		{"python listed but not Debian's name", Failure{Category: status.CategoryMissingDependency, Subject: "python"}, status.CategoryMissingDependency},
		// createdb comes in psql's package: a reader who has psql has it.
		{"same package as a prerequisite", Failure{Category: status.CategoryMissingDependency, Subject: "createdb"}, status.CategoryEnvironment},
		{"other category", Failure{Category: status.CategoryMissingFile, Subject: "go"}, status.CategoryMissingFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := prerequisiteFailure(tt.in, prereqs)
			if got.Category != tt.want {
				t.Fatalf("category = %s, want %s", got.Category, tt.want)
			}
			if tt.in.Subject == "go" && tt.want == status.CategoryEnvironment && got.Subject != prerequisiteSubject(prereqs[0]) {
				t.Errorf("subject = %q", got.Subject)
			}
			if want := "`createdb`, which comes with `psql` (package postgresql-client), which the tutorial assumes its reader has (its title names it)"; tt.in.Subject == "createdb" && got.Subject != want {
				t.Errorf("subject = %q, want %q", got.Subject, want)
			}
		})
	}
}

func TestEnvironmentCauseAptLists(t *testing.T) {
	withLists := t.TempDir()
	if err := os.WriteFile(filepath.Join(withLists, "deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := "Reading package lists...\nBuilding dependency tree...\nE: Unable to locate package jq\n"
	tests := []struct {
		name, dir string
		want      status.Category
	}{
		{"the image has no lists", t.TempDir(), status.CategoryEnvironment},
		{"the lists have no such package", withLists, status.CategoryCommandFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Classify("apt-get install -y jq", 100, out, false)
			got := EnvironmentCause(f, out, nil, func(string) bool { return AptListsOn(context.Background(), session.Local{})(tt.dir) })
			if got.Category != tt.want {
				t.Fatalf("category = %s, want %s", got.Category, tt.want)
			}
			if tt.want == status.CategoryEnvironment && (got.Subject != lacksAptLists || got.ErrorLine != "E: Unable to locate package jq") {
				t.Errorf("failure = %+v", got)
			}
		})
	}
}

// A program the Mentor installed from the image's package manager that then
// fails like an older version is the environment; the same failure of a
// program the image had, or an error that does not smell of versions, is not.
func TestOlderThanExpected(t *testing.T) {
	installed := []status.MentorNote{{Resolution: status.ResolutionWorkaround, Workaround: "apt-get update && apt-get install -y --no-install-recommends cargo"}}
	edition := "error: failed to parse manifest\nCaused by:\n  failed to parse the `edition` key\n"
	tests := []struct {
		name, command, output string
		notes                 []status.MentorNote
		want                  status.Category
	}{
		{"installed, old", "cargo build", edition, installed, status.CategoryEnvironment},
		{"in the image", "cargo build", edition, nil, status.CategoryCommandFailure},
		{"installed, a plain error", "cargo build", "error: could not find `Cargo.toml`\n", installed, status.CategoryCommandFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Classify(tt.command, 101, tt.output, false)
			if got := OlderThanExpected(f, tt.command, tt.output, tt.notes); got.Category != tt.want {
				t.Errorf("category %s, want %s (%+v)", got.Category, tt.want, got)
			}
		})
	}
}

// A missing path under /sys, /dev or /proc is the author's hardware, not a
// step the page forgot; any other missing path stays the page's.
func TestMachineFileIsTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		subject string
		want    status.Category
	}{
		{"/sys/class/backlight", status.CategoryEnvironment},
		{"/dev/ttyUSB0", status.CategoryEnvironment},
		{"/proc/acpi/battery", status.CategoryEnvironment},
		{"/system/notes.txt", status.CategoryMissingFile},
		{"sys/class/notes", status.CategoryMissingFile},
	} {
		f := EnvironmentCause(Failure{Category: status.CategoryMissingFile, Subject: tc.subject}, "", nil, func(string) bool { return true })
		if f.Category != tc.want {
			t.Errorf("%s: %s, want %s", tc.subject, f.Category, tc.want)
		}
	}
}

// An environment note is no gap: whatever the container lacked, its fix is
// the run's (an image, a setting, a setup command), never a change to the
// page.
func TestEnvironmentFixesNeverChangeThePage(t *testing.T) {
	subjects := []string{LacksNetwork, lacksDocker, lacksKVM, lacksAptLists, LacksDesktopHome, lacksPipOutsideVenv,
		lacksDatabaseServer, lacksSystemd, lacksSuppliedPrefix + "data.csv", "a recent enough `cargo` (older than the tutorial expects)",
		prerequisiteSubject(prereq.Prerequisite{Tool: "go", Line: 7}), "something else"}
	for _, subject := range subjects {
		fix := SuggestedFix(status.CategoryEnvironment, 12, subject)
		if !strings.HasPrefix(fix, "Nothing to fix in the tutorial") || strings.Contains(strings.ToLower(fix), "say ") || strings.Contains(fix, "sudo") {
			t.Errorf("%s: fix %q suggests a change to the page", subject, fix)
		}
	}
}
