// Package projectfile knows the file each build tool reads its project
// from (Cargo.toml, go.mod, package.json, pom.xml, a Makefile) and the
// message it prints when the folder it runs in has none. Such a failure is
// never the network's or the code's: the tool stopped before reading
// either, and most often the page made the project in a new folder (`cargo
// new hello`, `django-admin startproject site`) and never said to change
// into it.
package projectfile

import "regexp"

// missing are the tools' own messages, each naming the file it looked for
// (the first group) or, for messages that do not name it, paired with it.
var missing = []struct {
	re   *regexp.Regexp
	file string
}{
	// cargo: error: could not find `Cargo.toml` in `/workspace/work` or any parent directory
	{regexp.MustCompile("could not find `(Cargo\\.toml)` in"), ""},
	// go: go.mod file not found in current directory or any parent directory
	{regexp.MustCompile(`(go\.mod) file not found in current directory`), ""},
	// npm ERR! enoent Could not read package.json / npm error enoent Could not read package.json
	{regexp.MustCompile(`enoent Could not read (package\.json)`), ""},
	// yarn/pnpm: Couldn't find a package.json file in "/workspace/work"
	{regexp.MustCompile(`Couldn't find a (package\.json) file`), ""},
	// maven: The goal you specified requires a project to execute but there is no POM in this directory
	{regexp.MustCompile(`there is no POM in this directory`), "pom.xml"},
	// make: *** No targets specified and no makefile found.  Stop.
	{regexp.MustCompile(`No targets specified and no makefile found`), "Makefile"},
	// bundler: Could not locate Gemfile
	{regexp.MustCompile(`Could not locate (Gemfile)`), ""},
	// mix: ** (Mix) Could not find a Mix.Project, please ensure you are running Mix in a directory with a mix.exs file
	{regexp.MustCompile(`Could not find a Mix\.Project`), "mix.exs"},
	// dotnet: MSBUILD : error MSB1003: Specify a project or solution file.
	{regexp.MustCompile(`MSB1003: Specify a project or solution file`), "*.csproj"},
	// gradle: Directory '/workspace/work' does not contain a Gradle build.
	{regexp.MustCompile(`does not contain a Gradle build`), "build.gradle"},
}

// Missing says which project file a tool's output says the folder lacks.
func Missing(output string) (file string, ok bool) {
	for _, m := range missing {
		if g := m.re.FindStringSubmatch(output); g != nil {
			if m.file != "" {
				return m.file, true
			}
			return g[1], true
		}
	}
	return "", false
}

// Line is the line of output that says so, for a finding's quote.
func Line(output string) string {
	for _, m := range missing {
		if loc := m.re.FindStringIndex(output); loc != nil {
			start, end := loc[0], loc[1]
			for start > 0 && output[start-1] != '\n' {
				start--
			}
			for end < len(output) && output[end] != '\n' {
				end++
			}
			return output[start:end]
		}
	}
	return ""
}
