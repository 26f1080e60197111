package packages

import (
	"fmt"
	"slices"
)

// Manager is a package manager the Mentor can suggest commands for.
type Manager string

// The package managers the Mentor knows, in the order it looks for them.
const (
	APT      Manager = "apt-get"
	APK      Manager = "apk"
	DNF      Manager = "dnf"
	MicroDNF Manager = "microdnf"
	YUM      Manager = "yum"
)

var packageManagers = []Manager{APT, APK, DNF, MicroDNF, YUM}

// Detect finds the image's package manager on PATH.
func Detect(lookPath func(string) (string, error)) (Manager, bool) {
	for _, pm := range packageManagers {
		if _, err := lookPath(string(pm)); err == nil {
			return pm, true
		}
	}
	return "", false
}

// Family maps a manager to the naming its packages follow.
func (pm Manager) Family() int {
	switch pm {
	case APT:
		return 0
	case APK:
		return 1
	}
	return 2 // dnf, microdnf, yum
}

// Install is the command that installs pkg non-interactively, as root.
func (pm Manager) Install(pkg string) string {
	switch pm {
	case APT:
		return "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends " + pkg
	case APK:
		return "apk add --no-cache " + pkg
	}
	return fmt.Sprintf("%s install -y %s", pm, pkg)
}

// TutorialInstall is the command a tutorial would show its reader.
func (pm Manager) TutorialInstall(pkg string) string {
	switch pm {
	case APT:
		return "sudo apt-get install -y " + pkg
	case APK:
		return "sudo apk add " + pkg
	}
	return fmt.Sprintf("sudo %s install -y %s", pm, pkg)
}

// packages maps a missing command to the package that provides it, for
// Debian/Ubuntu (apt), Alpine (apk) and Fedora/RHEL (dnf, yum).
var packages = map[string][3]string{
	"jq":   {"jq", "jq", "jq"},
	"curl": {"curl", "curl", "curl"},
	"wget": {"wget", "wget", "wget"},
	"git":  {"git", "git", "git"},
	"make": {"make", "make", "make"},
	// Debian's gcc only recommends the C library's headers and start files;
	// without them the first link fails ("cannot find Scrt1.o").
	"gcc":        {"gcc libc6-dev", "gcc musl-dev", "gcc"},
	"cc":         {"gcc libc6-dev", "gcc musl-dev", "gcc"},
	"g++":        {"g++", "g++", "gcc-c++"},
	"c++":        {"g++", "g++", "gcc-c++"},
	"clang":      {"clang", "clang", "clang"},
	"cmake":      {"cmake", "cmake", "cmake"},
	"pkg-config": {"pkg-config", "pkgconf", "pkgconf-pkg-config"},
	"tree":       {"tree", "tree", "tree"},
	"unzip":      {"unzip", "unzip", "unzip"},
	"zip":        {"zip", "zip", "zip"},
	"xz":         {"xz-utils", "xz", "xz"},
	"bzip2":      {"bzip2", "bzip2", "bzip2"},
	"zstd":       {"zstd", "zstd", "zstd"},
	"python3":    {"python3", "python3", "python3"},
	"python":     {"python-is-python3", "python3", "python-unversioned-command"},
	"pip":        {"python3-pip", "py3-pip", "python3-pip"},
	"pip3":       {"python3-pip", "py3-pip", "python3-pip"},
	"node":       {"nodejs", "nodejs", "nodejs"},
	"nodejs":     {"nodejs", "nodejs", "nodejs"},
	"npm":        {"npm", "npm", "npm"},
	"npx":        {"npm", "npm", "npm"},
	"sqlite3":    {"sqlite3", "sqlite", "sqlite"},
	"file":       {"file", "file", "file"},
	"less":       {"less", "less", "less"},
	"vim":        {"vim", "vim", "vim-enhanced"},
	"vi":         {"vim", "vim", "vim-minimal"},
	"nano":       {"nano", "nano", "nano"},
	"rsync":      {"rsync", "rsync", "rsync"},
	"openssl":    {"openssl", "openssl", "openssl"},
	"ssh":        {"openssh-client", "openssh-client", "openssh-clients"},
	"scp":        {"openssh-client", "openssh-client", "openssh-clients"},
	"ssh-keygen": {"openssh-client", "openssh-keygen", "openssh"},
	"ps":         {"procps", "procps", "procps-ng"},
	"top":        {"procps", "procps", "procps-ng"},
	"free":       {"procps", "procps", "procps-ng"},
	"pkill":      {"procps", "procps", "procps-ng"},
	"pgrep":      {"procps", "procps", "procps-ng"},
	"watch":      {"procps", "procps", "procps-ng"},
	"ping":       {"iputils-ping", "iputils", "iputils"},
	"ip":         {"iproute2", "iproute2", "iproute"},
	"ss":         {"iproute2", "iproute2", "iproute"},
	"netstat":    {"net-tools", "net-tools", "net-tools"},
	"ifconfig":   {"net-tools", "net-tools", "net-tools"},
	"nc":         {"netcat-openbsd", "netcat-openbsd", "nmap-ncat"},
	"netcat":     {"netcat-openbsd", "netcat-openbsd", "nmap-ncat"},
	"dig":        {"dnsutils", "bind-tools", "bind-utils"},
	"nslookup":   {"dnsutils", "bind-tools", "bind-utils"},
	"host":       {"bind9-host", "bind-tools", "bind-utils"},
	"telnet":     {"telnet", "busybox-extras", "telnet"},
	"go":         {"golang-go", "go", "golang"},
	"gofmt":      {"golang-go", "go", "golang"},
	"ruby":       {"ruby", "ruby", "ruby"},
	"gem":        {"ruby", "ruby", "rubygems"},
	"perl":       {"perl", "perl", "perl"},
	"php":        {"php-cli", "php", "php-cli"},
	"java":       {"default-jre", "openjdk17-jre", "java-17-openjdk"},
	"javac":      {"default-jdk", "openjdk17-jdk", "java-17-openjdk-devel"},
	"mvn":        {"maven", "maven", "maven"},
	"gradle":     {"gradle", "gradle", "gradle"},
	"rustc":      {"rustc", "rust", "rust"},
	// Languages whose tools come in one package with another name: Elixir's
	// mix and iex come with elixir, GHC's ghci with ghc, Erlang's shell and
	// compiler with erlang.
	"elixir":     {"elixir", "elixir", "elixir"},
	"mix":        {"elixir", "elixir", "elixir"},
	"iex":        {"elixir", "elixir", "elixir"},
	"elixirc":    {"elixir", "elixir", "elixir"},
	"erl":        {"erlang", "erlang", "erlang"},
	"erlc":       {"erlang", "erlang", "erlang"},
	"escript":    {"erlang", "erlang", "erlang"},
	"ghc":        {"ghc", "ghc", "ghc"},
	"ghci":       {"ghc", "ghc", "ghc"},
	"runghc":     {"ghc", "ghc", "ghc"},
	"runhaskell": {"ghc", "ghc", "ghc"},
	"cabal":      {"cabal-install", "cabal", "cabal-install"},
	"ocaml":      {"ocaml", "ocaml", "ocaml"},
	"ocamlc":     {"ocaml", "ocaml", "ocaml"},
	"ocamlopt":   {"ocaml", "ocaml", "ocaml"},
	"dune":       {"ocaml-dune", "dune", "ocaml-dune"},
	"opam":       {"opam", "opam", "opam"},
	"gfortran":   {"gfortran", "gfortran", "gcc-gfortran"},
	"composer":   {"composer", "composer", "composer"},
	"Rscript":    {"r-base-core", "R", "R-core"},
	"tclsh":      {"tcl", "tcl", "tcl"},
	"sbcl":       {"sbcl", "sbcl", "sbcl"},
	"racket":     {"racket", "", "racket"},
	"meson":      {"meson", "meson", "meson"},
	"ninja":      {"ninja-build", "samurai", "ninja-build"},
	"hugo":       {"hugo", "hugo", "hugo"},
	"caddy":      {"caddy", "caddy", "caddy"},
	"mariadb":    {"mariadb-client", "mariadb-client", "mariadb"},
	"cargo":      {"cargo", "cargo", "cargo"},
	"docker":     {"docker.io", "docker-cli", "moby-engine"},
	"gpg":        {"gnupg", "gnupg", "gnupg2"},
	"sudo":       {"sudo", "sudo", "sudo"},
	"lsof":       {"lsof", "lsof", "lsof"},
	"strace":     {"strace", "strace", "strace"},
	"htop":       {"htop", "htop", "htop"},
	"tmux":       {"tmux", "tmux", "tmux"},
	"screen":     {"screen", "screen", "screen"},
	"bc":         {"bc", "bc", "bc"},
	"which":      {"debianutils", "which", "which"},
	"xxd":        {"xxd", "xxd", "vim-common"},
	"envsubst":   {"gettext-base", "gettext", "gettext"},
	"psql":       {"postgresql-client", "postgresql-client", "postgresql"},
	// PostgreSQL's other client programs come in the same package as psql.
	"createdb":   {"postgresql-client", "postgresql-client", "postgresql"},
	"createuser": {"postgresql-client", "postgresql-client", "postgresql"},
	"dropdb":     {"postgresql-client", "postgresql-client", "postgresql"},
	"dropuser":   {"postgresql-client", "postgresql-client", "postgresql"},
	"pg_dump":    {"postgresql-client", "postgresql-client", "postgresql"},
	"pg_restore": {"postgresql-client", "postgresql-client", "postgresql"},
	"pg_isready": {"postgresql-client", "postgresql-client", "postgresql"},
	"mysql":      {"default-mysql-client", "mysql-client", "mysql"},
	"redis-cli":  {"redis-tools", "redis", "redis"},
	"nginx":      {"nginx", "nginx", "nginx"},
	"shellcheck": {"shellcheck", "shellcheck", "ShellCheck"},
	"sqlite":     {"sqlite3", "sqlite", "sqlite"},
	"bash":       {"bash", "bash", "bash"},
	"patch":      {"patch", "patch", "patch"},
	"diff":       {"diffutils", "diffutils", "diffutils"},
	"cmp":        {"diffutils", "diffutils", "diffutils"},
	"time":       {"time", "", "time"},
	"gawk":       {"gawk", "gawk", "gawk"},
	"hostname":   {"hostname", "", "hostname"},
	"killall":    {"psmisc", "psmisc", "psmisc"},
	"crontab":    {"cron", "cronie", "cronie"},
	"ssh-add":    {"openssh-client", "openssh-client", "openssh-clients"},
	"gunzip":     {"gzip", "gzip", "gzip"},
	"gzip":       {"gzip", "gzip", "gzip"},
	"tar":        {"tar", "tar", "tar"},
	"virtualenv": {"python3-virtualenv", "py3-virtualenv", "python3-virtualenv"},
	"pipx":       {"pipx", "pipx", "pipx"},
	"yarn":       {"yarnpkg", "yarn", "yarnpkg"},
	"ansible":    {"ansible", "ansible", "ansible"},
	"terraform":  {"", "", ""},
	"kubectl":    {"", "", ""},
	"http":       {"httpie", "httpie", "httpie"},
	"ffmpeg":     {"ffmpeg", "ffmpeg", "ffmpeg-free"},
	"convert":    {"imagemagick", "imagemagick", "ImageMagick"},
	"pandoc":     {"pandoc", "pandoc", "pandoc"},
	"gh":         {"gh", "github-cli", "gh"},
	"lua":        {"lua5.4", "lua5.4", "lua"},
	"R":          {"r-base", "R", "R"},
	"dotnet":     {"", "", ""},
	// A command's name is not always its package's: clang++ comes with
	// clang, irb with ruby, rg with ripgrep. apt-get takes a name with
	// regular-expression characters that is no package (clang++) as a
	// pattern, and installs whatever matches, conflicts and all.
	"clang++":      {"clang", "clang", "clang"},
	"clang-format": {"clang-format", "clang-extra-tools", "clang-tools-extra"},
	"lldb":         {"lldb", "lldb", "lldb"},
	"gdb":          {"gdb", "gdb", "gdb"},
	"valgrind":     {"valgrind", "valgrind", "valgrind"},
	"irb":          {"ruby", "ruby-irb", "ruby"},
	"stack":        {"haskell-stack", "stack", "stack"},
	"jshell":       {"default-jdk", "openjdk17", "java-17-openjdk-devel"},
	"kotlinc":      {"kotlin", "kotlin", "kotlin"},
	"scala":        {"scala", "scala", "scala"},
	"tsc":          {"node-typescript", "typescript", "typescript"},
	"rg":           {"ripgrep", "ripgrep", "ripgrep"},
	"fd":           {"fd-find", "fd", "fd-find"},
	"ag":           {"silversearcher-ag", "the_silver_searcher", "the_silver_searcher"},
	"ipython":      {"ipython3", "ipython", "python3-ipython"},
	"ipython3":     {"ipython3", "ipython", "python3-ipython"},
	"bats":         {"bats", "bats", "bats"},
	"xmllint":      {"libxml2-utils", "libxml2-utils", "libxml2"},
	"msgfmt":       {"gettext", "gettext", "gettext"},
	"autoreconf":   {"autoconf", "autoconf", "autoconf"},
	"libtoolize":   {"libtool", "libtool", "libtool"},
	"inotifywait":  {"inotify-tools", "inotify-tools", "inotify-tools"},
	"flask":        {"python3-flask", "py3-flask", "python3-flask"},
	"pytest":       {"python3-pytest", "py3-pytest", "python3-pytest"},
	"ssh-copy-id":  {"openssh-client", "openssh-client-default", "openssh-clients"},
}

// For is the package that provides command under pm, or "".
func For(command string, pm Manager) string {
	p, ok := packages[command]
	if !ok {
		return ""
	}
	return p[pm.Family()]
}

// CommandsOf are the commands the package table maps to pkg under any
// manager, and those a bundle (build-essential) brings, other than pkg
// itself, sorted.
func CommandsOf(pkg string) []string {
	provided := slices.Clone(bundles[pkg])
	for cmd, byFamily := range packages {
		if slices.Contains(byFamily[:], pkg) && cmd != pkg {
			provided = append(provided, cmd)
		}
	}
	slices.Sort(provided) // map order must not leak into the result
	return slices.Compact(provided)
}

// bundles are the packages that bring other packages' commands with them:
// Debian's build-essential depends on make, gcc and g++.
var bundles = map[string][]string{
	"build-essential": {"make", "gcc", "g++", "cc", "c++"},
	"base-devel":      {"make", "gcc", "g++", "cc", "c++"},
}
