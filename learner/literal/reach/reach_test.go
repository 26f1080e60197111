package reach

import (
	"context"
	"errors"
	"net"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func TestNeeds(t *testing.T) {
	npm := Address{Host: "registry.npmjs.org", Port: 443, From: "npm's package registry"}
	pypi := Address{Host: "pypi.org", Port: 443, From: "the Python Package Index"}
	for _, c := range []struct {
		command string
		want    []Address
	}{
		{"npm install express", []Address{npm}},
		{"cd app && npm ci", nil}, // the project's own dependencies: maybe none (MayNeed)
		{"npm install --save-dev jest", []Address{npm}},
		{"sudo -H pip3 install requests", []Address{pypi}},
		{"python3 -m pip install --upgrade pip", []Address{pypi}},
		{"yarn add left-pad", []Address{{Host: "registry.yarnpkg.com", Port: 443, From: "Yarn's package registry"}}},
		{"bundle install && bundle exec rake", nil},
		{"go get github.com/gin-gonic/gin", []Address{{Host: "proxy.golang.org", Port: 443, From: "the Go module proxy"}}},
		{"git clone https://github.com/owner/repo.git", []Address{{Host: "github.com", Port: 443, From: "the URL it is given"}}},
		{"git clone git@gitlab.com:owner/repo.git", []Address{{Host: "gitlab.com", Port: 22, From: "the Git address it is given"}}},
		{"curl -fsSL https://deb.nodesource.com/setup_20.x | bash -", []Address{{Host: "deb.nodesource.com", Port: 443, From: "the URL it is given"}}},
		{`sh -c "$(wget -qO- http://get.tool.dev:8080/install.sh)"`, []Address{{Host: "get.tool.dev", Port: 8080, From: "the URL it is given"}}},
		{"npm install && npm install left-pad", []Address{npm}}, // once
		// Nothing downloaded: local scripts, offline installs, builds that
		// fetch only when the project has dependencies, placeholders.
		{"npm run build", nil},
		{"npm test", nil},
		{"pip install --no-index ./dist/app.whl", nil},
		{"cargo build", nil},
		{"go run .", nil},
		{"curl http://localhost:8080/hello", nil},
		{"curl https://example.com/data.json", nil},
		{"git clone https://$HOST/repo.git", nil},
		{"echo https://pypi.org", nil},
		{"git log --oneline", nil},
		{"git pull", nil},
		{"apt-get install -y python3", nil},
		{"curl http://192.168.1.10/status", nil},
	} {
		if got := Needs(c.command); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Needs(%q) = %v, want %v", c.command, got, c.want)
		}
	}
}

func TestMayNeed(t *testing.T) {
	for _, c := range []struct {
		command string
		want    string // the host, "" for none
	}{
		{"cargo build --release", "index.crates.io"},
		{"cargo run", "index.crates.io"},
		{"cargo build --offline", ""},
		{"go build ./...", "proxy.golang.org"},
		{"./mvnw package", "repo.maven.apache.org"},
		{"mvn -o package", ""},
		{"./gradlew build", "services.gradle.org"},
		{"sh mvnw package", "repo.maven.apache.org"},
		{"bash -c 'mvn package'", "repo.maven.apache.org"},
		{"npx cowsay hi", "registry.npmjs.org"},
		{"npm install", "registry.npmjs.org"}, // the project's dependencies: a need only if it has some
		{"bundle", "rubygems.org"},
		{"gcc hello.c -o hello", ""},
	} {
		got := ""
		if a := MayNeed(c.command); len(a) > 0 {
			got = a[0].Host
		}
		if got != c.want {
			t.Errorf("MayNeed(%q) = %q, want %q", c.command, got, c.want)
		}
	}
}

func TestReal(t *testing.T) {
	for host, want := range map[string]bool{
		"registry.npmjs.org": true, "github.com": true, "your-server.com": true,
		"example.com": false, "www.example.org": false, "api.example": false, "printer.local": false,
		"localhost": false, "127.0.0.1": false, "myhost": false, "{{host}}": false, "db.internal": false,
	} {
		if got := Real(host); got != want {
			t.Errorf("Real(%q) = %v, want %v", host, got, want)
		}
	}
}

// The check itself, run by a real bash on this machine: a port something
// listens on connects, a closed one is refused, a name with no address is
// said to have none. A reserved .invalid name never resolves (RFC 6761).
func TestScriptWithRealShell(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	open := ln.Addr().(*net.TCPAddr).Port
	closedLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := closedLn.Addr().(*net.TCPAddr).Port
	closedLn.Close()
	run := func(a Address) Result {
		cmd := exec.Command("bash", "-c", Script(a))
		cmd.Env = []string{"PATH=/usr/bin:/bin"} // no proxy from this machine
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("script for %s: %v\n%s", a, err, out)
		}
		return Read(a, string(out))
	}
	if r := run(Address{Host: "127.0.0.1", Port: open}); r.Answer != Reachable {
		t.Errorf("listening port: %+v", r)
	}
	if r := run(Address{Host: "127.0.0.1", Port: closed}); r.Answer != Unreachable || !strings.Contains(r.Evidence, "refused") {
		t.Errorf("closed port: %+v", r)
	}
	if r := run(Address{Host: "smile-reach-check.invalid", Port: 443, From: "a test"}); r.Answer != Unreachable ||
		!strings.HasPrefix(r.Evidence, EvidencePrefix+"smile-reach-check.invalid:443 (a test)") || !strings.Contains(r.Evidence, "has no address") {
		t.Errorf("unknown name: %+v", r)
	}
	proxied := exec.Command("bash", "-c", Script(Address{Host: "127.0.0.1", Port: closed}))
	proxied.Env = []string{"PATH=/usr/bin:/bin", "HTTPS_PROXY=http://proxy.corp:3128"}
	out, _ := proxied.CombinedOutput()
	if r := Read(Address{}, string(out)); r.Answer != Unknown {
		t.Errorf("with a proxy set the check must not judge: %+v (%s)", r, out)
	}
}

func TestCheckerAsksOncePerAddress(t *testing.T) {
	calls := 0
	c := NewChecker(func(_ context.Context, script string) (string, error) {
		calls++
		if strings.Contains(script, "/dev/tcp/pypi.org/443") {
			return "smile-reach: no-address\n", nil
		}
		return "smile-reach: connected\n", nil
	})
	addrs := []Address{{Host: "github.com", Port: 443}, {Host: "pypi.org", Port: 443}}
	a, r, ok := c.FirstUnreachable(context.Background(), addrs)
	if !ok || a.Host != "pypi.org" || r.Answer != Unreachable {
		t.Fatalf("FirstUnreachable = %v %+v %v", a, r, ok)
	}
	c.FirstUnreachable(context.Background(), addrs)
	if calls != 2 {
		t.Errorf("want each address checked once, checked %d times", calls)
	}
	// A check that could not run is not remembered: the next one tries again.
	failing := NewChecker(func(context.Context, string) (string, error) { calls++; return "", errors.New("no shell") })
	calls = 0
	for range 2 {
		if r := failing.Check(context.Background(), Address{Host: "pypi.org", Port: 443}); r.Answer != Unknown {
			t.Errorf("a failed check = %+v, want Unknown", r)
		}
	}
	if calls != 2 {
		t.Errorf("a failed check was cached (%d calls)", calls)
	}
}
