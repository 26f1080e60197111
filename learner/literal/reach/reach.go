// Package reach says where on the network a tutorial's command downloads
// from, and whether the Student's container can connect there.
//
// A package manager fetches from its registry (npm from registry.npmjs.org,
// pip from pypi.org, cargo from crates.io), and a downloader from the address
// it is given (`curl https://...`, `git clone git@host:...`). When the
// container cannot reach that address, the step fails for a reason that is
// the environment's, not the page's; worse, a package manager that cannot
// resolve its registry often retries for minutes before it gives up, and the
// run ends on a timeout that blames the page. So the Student checks the
// address first, from inside the container, once per address and run, and a
// step whose address cannot be reached is an environment finding with the
// check's answer as its evidence.
//
// Two kinds of need: Needs are the addresses a command certainly fetches
// from (an install, a clone, a download), checked before it runs; MayNeed
// are those a build fetches from only when its project has dependencies
// (`cargo build`, `go build`, `mvn package`), checked only after it failed.
package reach

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/learner/literal/shell"
)

// An Address is a host and port a command connects to, and why.
type Address struct {
	Host string
	Port int
	// From says what the command fetches there: "npm's package registry",
	// "the URL it is given".
	From string
}

// String is host:port.
func (a Address) String() string { return a.Host + ":" + strconv.Itoa(a.Port) }

// Needs is the addresses command certainly downloads from: the registry of a
// package manager's fetching subcommand, and the addresses a downloader is
// given. Each address once, in the order met.
func Needs(command string) []Address {
	var out []Address
	for _, words := range calls(command) {
		out = appendNew(out, registryOf(words, fetches, true)...)
		out = appendNew(out, urlsOf(words)...)
	}
	return out
}

// MayNeed is the addresses a build command downloads from when its project
// has dependencies: not a reason to stop before running it, but the first
// suspect when it fails.
func MayNeed(command string) []Address {
	var out []Address
	for _, words := range calls(command) {
		out = appendNew(out, registryOf(words, buildsWithDependencies, false)...)
	}
	return out
}

// calls is the simple commands of a command line, with those of a script
// handed to a shell as a string (`bash -c 'npm install'`).
func calls(command string) [][]string {
	var out [][]string
	for _, words := range shell.Calls(command) {
		if len(words) >= 3 && (words[0] == "sh" || words[0] == "bash") && words[1] == "-c" {
			out = append(out, calls(words[2])...)
			continue
		}
		out = append(out, words)
	}
	return out
}

func appendNew(list []Address, add ...Address) []Address {
	for _, a := range add {
		if !slices.ContainsFunc(list, func(b Address) bool { return b.Host == a.Host && b.Port == a.Port }) {
			list = append(list, a)
		}
	}
	return list
}

// A registry is where a package manager downloads packages from, and which
// of its subcommands do ("" in the list: the program run with no
// subcommand, as bare `yarn` or `bundle` install).
type registry struct {
	host, what string
	fetches    []string // subcommands that always download
	builds     []string // subcommands that download a project's dependencies
}

// registries by program. Hosts are the tools' defaults, as their
// documentation gives them; a page or image that points a tool elsewhere
// sets a proxy or a mirror, and then no check is made (see Script).
var registries = map[string]registry{
	"npm":      {host: "registry.npmjs.org", what: "npm's package registry", fetches: []string{"install", "i", "ci", "add", "update", "up", "upgrade", "create"}, builds: []string{"exec", "x"}},
	"npx":      {host: "registry.npmjs.org", what: "npm's package registry", builds: []string{"*"}},
	"pnpm":     {host: "registry.npmjs.org", what: "npm's package registry", fetches: []string{"install", "i", "add", "update", "up", "create", "dlx"}},
	"yarn":     {host: "registry.yarnpkg.com", what: "Yarn's package registry", fetches: []string{"", "install", "add", "upgrade", "create", "dlx"}},
	"bun":      {host: "registry.npmjs.org", what: "npm's package registry", fetches: []string{"install", "i", "add", "create", "x"}},
	"pip":      {host: "pypi.org", what: "the Python Package Index", fetches: []string{"install", "download"}},
	"pip3":     {host: "pypi.org", what: "the Python Package Index", fetches: []string{"install", "download"}},
	"pipx":     {host: "pypi.org", what: "the Python Package Index", fetches: []string{"install", "run"}},
	"pipenv":   {host: "pypi.org", what: "the Python Package Index", fetches: []string{"install", "sync", "update"}},
	"poetry":   {host: "pypi.org", what: "the Python Package Index", fetches: []string{"install", "add", "update", "lock"}},
	"uv":       {host: "pypi.org", what: "the Python Package Index", fetches: []string{"add", "sync", "lock"}, builds: []string{"run"}},
	"uvx":      {host: "pypi.org", what: "the Python Package Index", fetches: []string{"*"}},
	"gem":      {host: "rubygems.org", what: "RubyGems.org", fetches: []string{"install", "update"}},
	"bundle":   {host: "rubygems.org", what: "RubyGems.org", fetches: []string{"", "install", "add", "update"}},
	"bundler":  {host: "rubygems.org", what: "RubyGems.org", fetches: []string{"", "install", "add", "update"}},
	"cargo":    {host: "index.crates.io", what: "the crates.io index", fetches: []string{"install", "add", "fetch", "update", "search"}, builds: []string{"build", "run", "test", "check", "bench", "doc", "b", "r", "t", "c"}},
	"go":       {host: "proxy.golang.org", what: "the Go module proxy", fetches: []string{"get"}, builds: []string{"build", "run", "test", "install", "mod", "vet", "generate"}},
	"composer": {host: "repo.packagist.org", what: "Packagist", fetches: []string{"install", "require", "update", "create-project"}},
	"mix":      {host: "repo.hex.pm", what: "the Hex package registry", fetches: []string{"deps.get", "local.hex", "local.rebar", "archive.install", "hex.info"}, builds: []string{"compile", "test", "run", "phx.server"}},
	"dotnet":   {host: "api.nuget.org", what: "NuGet", fetches: []string{"restore", "add"}, builds: []string{"build", "run", "test", "new"}},
	"mvn":      {host: "repo.maven.apache.org", what: "Maven Central", builds: []string{"*"}},
	"mvnw":     {host: "repo.maven.apache.org", what: "Maven Central", builds: []string{"*"}},
	"gradle":   {host: "plugins.gradle.org", what: "the Gradle plugin portal", builds: []string{"*"}},
	"gradlew":  {host: "services.gradle.org", what: "Gradle's distribution server", builds: []string{"*"}},
	"cabal":    {host: "hackage.haskell.org", what: "Hackage", fetches: []string{"update", "install"}, builds: []string{"build", "run", "test"}},
	"cpanm":    {host: "cpan.metacpan.org", what: "CPAN", fetches: []string{"*"}},
	"luarocks": {host: "luarocks.org", what: "the LuaRocks registry", fetches: []string{"install", "download", "search"}},
	"opam":     {host: "opam.ocaml.org", what: "the opam repository", fetches: []string{"init", "install", "update"}},
	"rustup":   {host: "static.rust-lang.org", what: "the Rust toolchain server", fetches: []string{"install", "update", "toolchain", "target", "component", "default", "init"}},
	"conda":    {host: "conda.anaconda.org", what: "the conda channels", fetches: []string{"install", "create", "update"}},
	"mamba":    {host: "conda.anaconda.org", what: "the conda channels", fetches: []string{"install", "create", "update"}},
}

// Which list of a registry a lookup reads.
var (
	fetches                = func(r registry) []string { return r.fetches }
	buildsWithDependencies = func(r registry) []string { return r.builds }
)

// registryOf is the registry a simple command downloads from, if its
// subcommand is in the list which picks. certain asks for the downloads a
// command makes whatever the project (Needs); otherwise a project's own
// dependencies count too (MayNeed).
func registryOf(words []string, which func(registry) []string, certain bool) []Address {
	prog, args := program(words)
	r, ok := registries[prog]
	if !ok {
		return nil
	}
	if offline(prog, args) {
		return nil
	}
	sub := subcommand(args)
	list := which(r)
	if project := projectInstall(prog, args); project && certain {
		return nil // the project's own dependencies: maybe none, so no reason to stop before it
	} else if !project && !slices.Contains(list, "*") && !slices.Contains(list, sub) {
		return nil
	}
	return []Address{{Host: r.host, Port: 443, From: r.what}}
}

// projectInstalls are the subcommands that install the project's own
// dependencies when given no package (`npm install`, `bundle`): a project
// with none (a package.json listing no dependencies) needs no network, so
// such a command may need the registry rather than certainly needs it.
var projectInstalls = map[string][]string{
	"npm": {"install", "i", "ci"}, "pnpm": {"install", "i"}, "bun": {"install", "i"}, "yarn": {"", "install"},
	"bundle": {"", "install"}, "bundler": {"", "install"}, "composer": {"install"}, "pipenv": {"install", "sync"}, "poetry": {"install"},
}

// projectInstall: the command installs the project's dependencies, naming
// no package of its own.
func projectInstall(prog string, args []string) bool {
	subs, ok := projectInstalls[prog]
	if !ok {
		return false
	}
	var operands []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			operands = append(operands, a)
		}
	}
	switch len(operands) {
	case 0:
		return slices.Contains(subs, "")
	case 1:
		return slices.Contains(subs, operands[0])
	}
	return false
}

// program is the program a simple command runs and its arguments, seeing
// through `python3 -m pip` (a module run as a program), `./mvnw` and
// `./gradlew` (a wrapper script beside the project, also when handed to
// `sh` or `bash`).
func program(words []string) (string, []string) {
	if len(words) == 0 {
		return "", nil
	}
	prog := words[0]
	if i := strings.LastIndexByte(prog, '/'); i >= 0 {
		prog = prog[i+1:]
	}
	args := words[1:]
	if strings.HasPrefix(prog, "python") && len(args) >= 2 && args[0] == "-m" {
		return args[1], args[2:]
	}
	if (prog == "sh" || prog == "bash") && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return program(args) // `sh mvnw package`: the script is the program
	}
	return prog, args
}

// subcommand is the first argument that is not an option, "" when none.
func subcommand(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// offline: the command says it will not use the network (`pip install
// --no-index`, `npm install --offline`, `cargo build --offline`).
func offline(prog string, args []string) bool {
	for _, a := range args {
		switch a {
		case "--offline", "--no-index", "--frozen-offline", "-o":
			if a == "-o" && prog != "mvn" && prog != "mvnw" && prog != "gradle" && prog != "gradlew" {
				continue
			}
			return true
		}
	}
	return false
}

// downloaders are programs whose URL arguments they connect to.
var downloaders = map[string]bool{
	"curl": true, "wget": true, "git": true, "http": true, "https": true, "aria2c": true, "svn": true, "hg": true,
	"pip": true, "pip3": true, "npm": true, "yarn": true, "pnpm": true, "deno": true, "helm": true, "go": true,
}

// gitFetching are git's subcommands that connect to the URL they are given.
var gitFetching = []string{"clone", "fetch", "pull", "ls-remote", "submodule", "push"}

// scpLike is git's other way to write an address: user@host:path.
var scpLike = regexp.MustCompile(`^[\w.-]+@([\w.-]+\.[a-z]{2,}):[^/]`)

// urlsOf is the addresses of the URLs a downloader is given.
func urlsOf(words []string) []Address {
	prog, args := program(words)
	if !downloaders[prog] || prog == "git" && !slices.Contains(gitFetching, subcommand(args)) {
		return nil
	}
	var out []Address
	for _, a := range args {
		if m := scpLike.FindStringSubmatch(a); m != nil && prog == "git" {
			if Real(m[1]) {
				out = appendNew(out, Address{Host: m[1], Port: 22, From: "the Git address it is given"})
			}
			continue
		}
		u, err := url.Parse(a)
		if err != nil || u.Host == "" || !Real(u.Hostname()) {
			continue
		}
		port, ok := schemePorts[u.Scheme]
		if !ok {
			continue
		}
		if p, err := strconv.Atoi(u.Port()); err == nil {
			port = p
		}
		out = appendNew(out, Address{Host: strings.ToLower(u.Hostname()), Port: port, From: "the URL it is given"})
	}
	return out
}

var schemePorts = map[string]int{"http": 80, "https": 443, "git": 9418, "ssh": 22, "ftp": 21, "git+https": 443, "git+ssh": 22}

// hostName is a DNS name as published sites have: labels of letters,
// digits and hyphens, and a top-level domain of letters.
var hostName = regexp.MustCompile(`^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}$`)

// reservedDomains are names that stand for any site in examples (RFC 2606
// and 6761) or a machine of the reader's own network: a command naming
// one illustrates, or points at something only the reader has.
var reservedDomains = []string{"example.com", "example.org", "example.net", "example", "test", "invalid", "localhost", "local", "internal", "lan", "home", "corp"}

// Real says whether host is a published DNS name worth checking: not a
// placeholder (`your-server.com` is still checked; `example.com` is not),
// not an address on this machine or a private network, not a template.
func Real(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if !hostName.MatchString(host) {
		return false // an IP address, a template ({{host}}, $HOST), a bare name
	}
	for _, d := range reservedDomains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return false
		}
	}
	return true
}

// Describe is the sentence that names what a command fetches where.
func Describe(a Address) string {
	return fmt.Sprintf("%s (%s)", a, a.From)
}
