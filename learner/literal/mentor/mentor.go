package mentor

import (
	"context"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/packages"
	"github.com/smile-loop/smile/learner/literal/shell"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// mentor is one consultation of the rule-based Mentor. It reads the
// Student's finding, the tutorial and the (read-only) work folder; it never
// runs tutorial commands.
type mentor struct {
	task     *wire.Task
	env      provider.Env
	lookPath func(string) (string, error)
	// probeSess is the shell session look-ups run in (handsProbe).
	probeSess *session.Session
	// probe runs the Mentor's look-ups (which package provides a command);
	// nil means localProbe, in the Mentor's own container.
	probe probeFunc
	// beat is how often a long look-up reports progress.
	beat time.Duration
	tut  *spec.Tutorial
}

// advice is the Mentor's answer before it is written out.
type advice struct {
	wire.MentorAdvice
	// Explanation says what went wrong and why, in sentences.
	Explanation string
}

// Answer is the rule-based Mentor's answer to the question in task, the
// Student's finding. lookPath finds a program on PATH (nil: exec.LookPath);
// probe runs the Mentor's look-ups (nil: in the container's hands).
func Answer(ctx context.Context, task *wire.Task, env provider.Env, lookPath func(string) (string, error), probe probeFunc) *wire.MentorResultRequest {
	m := &mentor{task: task, env: env, lookPath: lookPath, probe: probe}
	return m.answer(ctx)
}

func (m *mentor) answer(ctx context.Context) *wire.MentorResultRequest {
	if m.lookPath == nil {
		// The package manager is looked for where the commands run.
		m.lookPath = func(name string) (string, error) {
			p, err := session.LookPath(ctx, m.env.HandsOrLocal(), name, nil)
			if err == nil && p == "" {
				err = exec.ErrNotFound
			}
			return p, err
		}
	}
	if m.probe == nil {
		// Look-ups run where the tutorial's commands run (the container's
		// hands), never where the Mentor's logic runs (the controller).
		m.probe = m.handsProbe
		defer m.closeProbe()
	}
	if m.beat <= 0 {
		timeout := m.task.Behavior.TimeoutSeconds
		if timeout <= 0 {
			timeout = spec.DefaultConfig().StudentBehavior.TimeoutSeconds
		}
		m.beat = time.Duration(timeout) * time.Second / 3
	}
	m.env.Progress(ctx, "reading the Student's question", 0)
	if t, err := m.task.LoadTutorial(); err == nil {
		m.tut = t
	}
	f, ok := m.askedFinding()
	var a advice
	if !ok {
		a = advice{MentorAdvice: wire.MentorAdvice{Line: m.studentLine(), Resolution: status.ResolutionUnresolvable},
			Explanation: "The Student's question names no problem I can check (no finding was attached), so I have no workaround to give."}
	} else {
		m.env.Progress(ctx, fmt.Sprintf("line %d: %s", f.Line, f.Category), f.Line)
		a = m.advise(ctx, f)
	}
	m.env.Log.Info("Advice", "line", a.Line, "category", a.Category, "resolution", string(a.Resolution))
	adv := a.MentorAdvice
	return &wire.MentorResultRequest{
		MentorOutput: render(f, a),
		Timestamp:    time.Now().UTC(),
		Advice:       &adv,
		Audit:        &status.Audit{Commands: []status.AuditCommand{}, Files: []status.AuditFile{}, LLMCalls: []status.LLMCall{}},
	}
}

func (m *mentor) studentLine() int {
	if m.task.StudentOutput != nil {
		return m.task.StudentOutput.Line
	}
	return 0
}

// askedFinding is the finding the Student asked about: the one marked Asked,
// else the one at the Student's current line.
func (m *mentor) askedFinding() (status.Finding, bool) {
	so := m.task.StudentOutput
	if so == nil {
		return status.Finding{}, false
	}
	for i := len(so.Findings) - 1; i >= 0; i-- {
		if so.Findings[i].Asked {
			return so.Findings[i], true
		}
	}
	for i := len(so.Findings) - 1; i >= 0; i-- {
		if so.Findings[i].Line == so.Line && so.Line > 0 {
			return so.Findings[i], true
		}
	}
	return status.Finding{}, false
}

// advise diagnoses the finding, then weighs the diagnosis against the
// workarounds earlier iterations already tried at that line.
func (m *mentor) advise(ctx context.Context, f status.Finding) advice {
	return m.againstEarlierNotes(f, m.diagnose(ctx, f))
}

// diagnose applies the rules for the finding's category, after any fix the
// failing command printed itself.
func (m *mentor) diagnose(ctx context.Context, f status.Finding) advice {
	base := wire.MentorAdvice{Line: f.Line, Category: f.Category}
	switch f.Category {
	case status.CategoryMissingDependency, status.CategoryCommandFailure, status.CategoryEnvironment:
		if a, ok := m.fromHint(base, f); ok {
			return a
		}
	}
	fail := Classify(f.Command, f.ExitCode, f.Output, f.Category == status.CategoryTimeout)
	switch f.Category {
	case status.CategoryMissingDependency:
		name := textutil.FirstNonEmpty(fail.Subject, shell.CommandName(f.Command))
		if strings.Contains(name, "/") {
			if rel, _, ok := m.findInWork(name); ok {
				name = textutil.FirstNonEmpty(Interpreter(context.Background(), m.env.HandsOrLocal(), filepath.Join(m.env.WorkDir, rel)), name)
			}
		}
		return m.missingDependency(ctx, base, f, name, "")
	case status.CategoryEnvironment:
		return m.environment(ctx, base, f, fail)
	case status.CategoryPermissionDenied:
		return m.permissionDenied(base, f, textutil.FirstNonEmpty(fail.Subject, shell.CommandName(f.Command)))
	case status.CategoryMissingFile:
		return m.missingFile(base, f, fail.Subject)
	case status.CategoryOutputMismatch:
		base.Resolution = status.ResolutionProceed
		printed := strings.Join(FirstLines(f.Output, 3), " | ")
		base.SuggestedFix = fmt.Sprintf("Update the output shown at line %d%s to what `%s` prints today%s, or fix the step so it prints it.",
			f.Line, parenCode(f.Quote), FirstLine(f.Command), parenCode(Shorten(printed, 120)))
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"The tutorial expects %s in the output of `%s`, but the command printed %s. The command itself succeeded, so this is the tutorial showing outdated or wrong output: note it and go on with the next step.",
			codeOr(f.Quote, "other output"), FirstLine(f.Command), codeOr(Shorten(printed, 200), "nothing"))}
	case status.CategoryAmbiguousInstruction:
		return m.ambiguous(base, f)
	case status.CategoryMissingImage:
		base.Resolution = status.ResolutionProceed
		base.SuggestedFix = f.SuggestedFix
		return advice{MentorAdvice: base, Explanation: "The image is missing from the tutorial's folder; the text around it is enough to go on."}
	case status.CategoryUndefinedVariable:
		return m.undefinedVariable(base, f)
	case status.CategoryTimeout:
		base.Resolution = status.ResolutionUnresolvable
		base.SuggestedFix = SuggestedFix(f.Category, f.Line, "")
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"`%s` did not finish in time. If it starts something that keeps running (a server, a watcher), the tutorial should say to run it in the background or in a second terminal; otherwise it may be waiting for input (there is no terminal to type into) or for the network. I cannot tell which from here, so this is a blocker.",
			FirstLine(f.Command))}
	}
	if a, ok := gitIdentity(base, f); ok {
		return a
	}
	base.Resolution = status.ResolutionUnresolvable
	base.SuggestedFix = fmt.Sprintf("Fix the command at line %d, or add the step it depends on before it: it exits with code %d%s.", f.Line, f.ExitCode, parenCode(fail.ErrorLine))
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` failed with exit code %d%s. Nothing in the tutorial explains this failure and I know no safe workaround for it, so this is a blocker until the tutorial is fixed.",
		FirstLine(f.Command), f.ExitCode, parenCode(fail.ErrorLine))}
}

// missingDependency installs the package that provides name: from the
// table, else from what the image's package manager says. said is how the
// tutorial tells its reader to have it ("": it never does).
func (m *mentor) missingDependency(ctx context.Context, base wire.MentorAdvice, f status.Finding, name string, said string) advice {
	pm, found := packages.Detect(m.lookPath)
	pkg, how := "", ""
	if found {
		pkg = packages.For(name, pm)
		how = fmt.Sprintf("The image uses %s; the package `%s` provides it.", pm, pkg)
	}
	why := ""
	if found && pkg == "" && name != "" && !strings.Contains(name, "/") {
		var names []string
		if pm, names, why = m.lookup(ctx, name, f.Line); len(names) > 0 {
			pkg = names[0]
			how = fmt.Sprintf("It is not in my table, so I asked %s in this image: its package lists name `%s` for it.", pm, pkg)
		}
	}
	if said == "" {
		said = "the tutorial never says to install it"
	}
	if pkg == "" {
		base.Resolution = status.ResolutionUnresolvable
		base.SuggestedFix = SuggestedFix(f.Category, f.Line, name)
		if !found {
			why = "the image has no package manager I know (apt-get, apk, dnf, microdnf, yum)"
		} else if why == "" {
			why = "no package manager answered"
		}
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"`%s` is not installed in the image and %s; I know no package that provides `%s` (%s), so I cannot give a workaround.", name, said, name, why)}
	}
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = pm.Install(pkg)
	base.SuggestedFix = fmt.Sprintf("Add `%s` to the prerequisites (or as a step) before line %d.", pm.TutorialInstall(pkg), f.Line)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf("`%s` is not installed in the image and %s. %s", name, said, how)}
}

func (m *mentor) permissionDenied(base wire.MentorAdvice, f status.Finding, file string) advice {
	base.Resolution = status.ResolutionUnresolvable
	base.SuggestedFix = SuggestedFix(f.Category, f.Line, file)
	if file != "" && (strings.Contains(file, "/") || file == shell.CommandName(f.Command)) {
		if rel, mode, ok := m.findInWork(file); ok && mode.IsRegular() && mode.Perm()&0o111 == 0 {
			base.Resolution = status.ResolutionWorkaround
			base.Workaround = "chmod +x " + shellWord(file)
			base.SuggestedFix = fmt.Sprintf("Add `chmod +x %s` before line %d.", file, f.Line)
			return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
				"`%s` exists in the work folder (%s) but is not executable: the tutorial creates it and runs it without ever making it executable.", file, rel)}
		}
	}
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"The step is not allowed to do what it tries (%s), and it is not a script in the work folder that only lacks its executable bit, so I know no workaround.", f.Problem)}
}

func (m *mentor) missingFile(base wire.MentorAdvice, f status.Finding, missing string) advice {
	base.Resolution = status.ResolutionUnresolvable
	if missing == "" {
		base.SuggestedFix = SuggestedFix(f.Category, f.Line, "")
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf("A file or folder the step needs does not exist (%s), and the error does not say which.", f.Problem)}
	}
	if a, ok := m.folderNotEntered(base, f, missing); ok {
		return a
	}
	if strings.HasSuffix(missing, "/") {
		return m.outputFolder(base, f, strings.TrimSuffix(missing, "/"))
	}
	if c, ok := m.nearMatch(missing, f.Line); ok {
		target := c.name
		if c.inWork {
			target = filepath.Join(m.env.WorkDir, c.name)
		} else if path.Dir(c.name) == path.Dir(missing) {
			target = path.Base(c.name)
		} else if rel, err := filepath.Rel(path.Dir(missing), c.name); err == nil && !path.IsAbs(c.name) && !path.IsAbs(missing) {
			// A link's target is read from the link's own folder.
			target = rel
		}
		link := "ln -s " + shellWord(target) + " " + shellWord(missing)
		if d := path.Dir(missing); d != "." && d != "/" {
			link = "mkdir -p " + shellWord(d) + " && " + link
		}
		base.Resolution = status.ResolutionWorkaround
		base.Workaround = link
		base.SuggestedFix = fmt.Sprintf("Line %d refers to `%s`, but the tutorial created `%s`: use one name in both places.", f.Line, missing, c.shown)
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"`%s` does not exist, but `%s` does (%s): the names almost match, so the tutorial most likely means the same thing. The workaround links the missing name to the existing one; it runs right before line %d, in the folder that line runs in, so `%s` is relative to that folder.",
			missing, c.shown, c.where, f.Line, missing)}
	}
	if a, ok := m.shownFile(base, f, missing); ok {
		return a
	}
	if shell.CommandName(f.Command) == "cd" {
		base.Resolution = status.ResolutionWorkaround
		base.Workaround = "mkdir -p " + shellWord(missing)
		base.SuggestedFix = fmt.Sprintf("Add `mkdir -p %s` before line %d.", missing, f.Line)
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"The tutorial changes into the folder `%s`, but no step creates it and nothing in the work folder has a similar name.", missing)}
	}
	base.SuggestedFix = fmt.Sprintf("Create `%s` before line %d, or say where it comes from.", missing, f.Line)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` does not exist: no step before line %d creates it, and nothing in the work folder or the tutorial has a similar name, so I cannot tell what it should contain.",
		missing, f.Line)}
}

var problemVar = regexp.MustCompile("`\\$(\\w+)`")

func (m *mentor) undefinedVariable(base wire.MentorAdvice, f status.Finding) advice {
	base.Resolution = status.ResolutionUnresolvable
	name := ""
	if mm := problemVar.FindStringSubmatch(f.Problem); mm != nil {
		name = mm[1]
	}
	base.SuggestedFix = SuggestedFix(f.Category, f.Line, name)
	later := ""
	if m.tut != nil && name != "" {
		re := regexp.MustCompile(`(?:^|[\s;])(?:export\s+|declare\s+(?:-\w+\s+)?|readonly\s+)?` + regexp.QuoteMeta(name) + `=`)
		for line := f.Line + 1; ; line++ {
			text := m.tut.LineText(line)
			if text == "" && line > strings.Count(m.tut.Content, "\n")+1 {
				break
			}
			if re.MatchString(text) {
				later = fmt.Sprintf(" The tutorial sets it only at line %d, after it is used.", line)
				base.SuggestedFix = fmt.Sprintf("Move the line that sets %s (line %d) before line %d.", name, line, f.Line)
				break
			}
		}
	}
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"Nothing in the tutorial sets $%s before line %d, so its value is unknown; guessing one would hide the gap.%s", name, f.Line, later)}
}

func (m *mentor) ambiguous(base wire.MentorAdvice, f status.Finding) advice {
	if a, ok := m.unplacedFile(base, f); ok {
		return a
	}
	base.Resolution = status.ResolutionProceed
	lang := ""
	if m.tut != nil {
		for _, b := range m.tut.Blocks {
			if b.Kind == markdown.BlockCode && b.Line == f.Line {
				lang = codelang.InfoLang(b.Info)
			}
		}
	}
	base.SuggestedFix = SuggestedFix(f.Category, f.Line, "")
	guess := ""
	if name, line, ok := m.guessFile(lang, f.Line); ok {
		guess = fmt.Sprintf(" Line %d uses `%s`, which nothing creates, so the block is probably meant to be saved as `%s`.", line, name, name)
		base.SuggestedFix = fmt.Sprintf("Introduce the block at line %d with \"Save this as `%s`:\" (line %d uses it).", f.Line, name, line)
	}
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"The %s block at line %d is not introduced by anything that says what to do with it: no file name to save it to, no instruction to run it.%s A reader has to guess; skip it and go on, and the gap is in the report.",
		codelang.Name(lang), f.Line, guess)}
}

// render writes the advice as text that stands on its own: for the user, the
// report and, later, LLM Students.
func render(f status.Finding, a advice) string {
	var b strings.Builder
	if a.Line > 0 {
		quote := f.Quote
		if quote == "" {
			quote = FirstLine(f.Command)
		}
		fmt.Fprintf(&b, "Line %d%s: ", a.Line, parenCode(quote))
	}
	b.WriteString(a.Explanation)
	b.WriteString("\n")
	switch a.Resolution {
	case status.ResolutionWorkaround:
		// A workaround that writes a Markdown file may hold a fence itself:
		// the block's fence is longer than any run of backticks in it.
		fence := "```"
		for strings.Contains(a.Workaround, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "\nWorkaround, run before line %d:\n%ssh\n%s\n%s\n", a.Line, fence, a.Workaround, fence)
	case status.ResolutionProceed:
		b.WriteString("\nThis is a mistake in the tutorial, not something to fix in the container: note it and go on with the next step.\n")
	case status.ResolutionUnresolvable:
		b.WriteString("\nI know no workaround: this is a blocker until the tutorial is fixed.\n")
	}
	if a.SuggestedFix != "" {
		fmt.Fprintf(&b, "\nSuggested fix for the tutorial: %s\n", a.SuggestedFix)
	}
	return b.String()
}

// parenCode is " (`s`)", s as inline code in parentheses after what it
// belongs to, or "" when s is empty: never empty backticks in parentheses.
func parenCode(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return " (" + inlineCode(s) + ")"
}

// codeOr is s as inline code, or the words none when s is blank.
func codeOr(s, none string) string {
	if strings.TrimSpace(s) == "" {
		return none
	}
	return inlineCode(s)
}

// inlineCode writes s as Markdown inline code, even when it holds backticks.
func inlineCode(s string) string {
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./~+:@%=-]+$`)

// shellWord quotes a word for the shell only when it needs it.
func shellWord(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// missingNamed reads the file a blamed finding says is missing
// ("`app.py` does not exist: ...").
var missingNamed = regexp.MustCompile("^`([^`]+)` does not exist")

// unplacedFile answers an ambiguous_instruction with evidence: a step failed
// for want of a file, and the Student blamed a block it could not place
// (CauseLine). The workaround saves that block as the missing file before
// the failing step, so the Student can go on and find what comes next.
func (m *mentor) unplacedFile(base wire.MentorAdvice, f status.Finding) (advice, bool) {
	match := missingNamed.FindStringSubmatch(f.Problem)
	if f.CauseLine <= 0 || match == nil || m.tut == nil {
		return advice{}, false
	}
	missing := match[1]
	for _, b := range m.tut.Blocks {
		if b.Kind != markdown.BlockCode || b.Line != f.CauseLine {
			continue
		}
		base.Resolution = status.ResolutionWorkaround
		base.Workaround = writeShown(missing, b)
		base.SuggestedFix = f.SuggestedFix
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"Line %d needs `%s`, which nothing creates. The %s block at line %d is probably that file, but the tutorial does not say so, so a reader cannot know where it goes. The workaround saves that block as `%s` before line %d.",
			f.Line, missing, codelang.Name(codelang.InfoLang(b.Info)), b.Line, missing, f.Line)}, true
	}
	return advice{}, false
}
