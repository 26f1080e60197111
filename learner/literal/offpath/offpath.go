// Package offpath reads the prose that takes a block off the reader's path:
// an alternative to the step just taken ("Alternatively, ...", "Option
// 2:"), a setup of the reader's own ("if you manage your own virtualenv"),
// a tab-completion demonstration, and an exercise's target (the run a
// finished solution gives, shown before the reader has written it). Such a
// block is omitted and listed, never run and never reported.
package offpath

import (
	"regexp"
	"strings"
	"unicode"
)

var (
	altIntro = regexp.MustCompile(`(?i)^(?:alternatively|or,?\s+if\s+you\s+prefer|or\s+you\s+(?:can|could)|` +
		`another\s+(?:way|option)|instead,?\s+you\s+(?:can|could)|instead\s+of\s+\w+ing\b|if\s+you\s+prefer|` +
		// "Option 2: ...", "Method B.": the first option is the path, later ones alternatives.
		`(?:option|method|approach|alternative)\s+(?:[2-9]|[b-h]|two|three|four)|` +
		`if\s+you(?:'re|\s+are)\s+(?:running|using)\b[^.]*\b(?:docker|podman|a\s+container))\b`)
	// readersOwn addresses readers with a setup of their own (a
	// virtualenv they manage, their own sources to build): what follows is
	// for that setup, not a step of the page.
	readersOwn = regexp.MustCompile(`(?i)\bif\s+(?:you(?:'re|\s+are)?\s+)?(?:manag(?:e|es|ing)|maintain(?:s|ing)?|us(?:e|es|ing)|ha(?:ve|s|ving)|run(?:s|ning)?|work(?:s|ing)?\s+with)\s+your\s+own\b|` +
		// "All you have to do is put your C/C++ files in the src/ folder."
		"\\b(?:put|place|drop|keep)\\s+your\\s+(?:own\\s+)?(?:[\\w/+#.-]+\\s+){0,2}(?:files|sources|source\\s+files|code)\\s+(?:in|into|under)\\b")
	tabDemo     = regexp.MustCompile(`(?i)tab[- ]complet|\b(?:press|hit)(?:ing)?\s+(?:the\s+)?<?tab>?\b|\bauto-?complet`)
	tabKeyShown = regexp.MustCompile(`<TAB>|<Tab>|\[TAB\]|\[Tab\]|⇥`)
)

// otherAlt opens a sentence with another way in the other languages pages
// are written in, or is the word "or" alone between two blocks ("或",
// "ou", "oder").
var otherAlt = regexp.MustCompile(`(?i)^(?:(?:alternativ(?:ement|amente|ely)?|alternatywnie|или|або|o bien|ou bien|oppure|oder auch)(?:[\s,，:：]|$)|或者|或是|あるいは|または|또는|혹은|` +
	`(?:ou|o|oder|oppure|или|або|lub|veya|of|或|または|또는|혹은)\s*[:：.]?\s*$)`)

// Alternative: the sentence introduces another way to do the step just
// taken.
func Alternative(sentence string) bool {
	return altIntro.MatchString(sentence) || otherAlt.MatchString(strings.TrimSpace(sentence))
}

// ReadersOwn is the words by which the prose addresses a reader with a
// setup of their own, "" when it does not.
func ReadersOwn(prose string) string { return strings.TrimSpace(readersOwn.FindString(prose)) }

// TabDemo: the block shows tab completion (the sentence before it or the
// one after it says so, or the block shows the Tab key).
func TabDemo(lastBefore, firstAfter, block string) bool {
	return tabDemo.MatchString(lastBefore) || tabKeyShown.MatchString(block) || tabDemo.MatchString(firstAfter)
}

// An exercise asks its reader to write or finish a program ("Complete the
// program hola.c so that it prints its argument. For example:") and then
// shows a run of the finished program. That run is the exercise's target:
// the page ships the program unfinished, or not at all, so running it as
// the page stands shows nothing about the page.
var (
	// programVerb is a word asking the reader to write, finish or change
	// code, in the languages exercises are written in (matched whole, as
	// a word of the sentence).
	programVerb = regexp.MustCompile(`^(?:complete|finish|modify|extend|write|implement|` +
		`completar?|complet[ae]|modificar?|modifique|escrib(?:ir|a)|escrev(?:er|a)|implement(?:ar|e)|` +
		`compl(?:é|e)te[rz]?|modifie[rz]?|(?:é|e)cri(?:re|vez)|impl(?:é|e)mente[rz]?|` +
		`vervollst(?:ä|a)ndige\pL*|erg(?:ä|a)nze\pL*|(?:ä|a)ndere\pL*|schreibe\pL*|implementiere\pL*|` +
		`completare|modifica(?:re)?|scriv(?:i|ere)|implementare|uzupe(?:ł|l)nij|zmodyfikuj|napisz|zaimplementuj|` +
		`допишите|дополните|измените|напишите|реализуйте)$`)
	// programVerbCJK is the same in scripts written without spaces.
	programVerbCJK = regexp.MustCompile(`完成|修改|编写|編寫|实现|実装|書いて|変更して|완성|수정|작성|구현`)
	// programNoun names what is written: a program, script or function.
	programNoun = regexp.MustCompile(`^(?:programs?|scripts?|functions?|programas?|funci(?:ó|o)n|fun(?:ç|c)(?:ã|a)o|programmes?|fonctions?|programm|funktion|programma|funzione|program|funkcj[aęi]|` +
		`программу|функцию|скрипт)$`)
	programNounCJK = regexp.MustCompile(`程序|函数|プログラム|関数|프로그램|함수`)
	// sourceFile is a source file's name (`hola.c`).
	sourceFile = regexp.MustCompile(`[\w-]+\.(?:c|cc|cpp|h|py|rb|go|rs|java|js|ts|sh|pl|lua|hs|ml|kt|swift|cs)(?:[^\w.]|$)`)
)

// wordMatching is the first word of s (letters, lower-cased) re matches
// whole, "" when none does.
func wordMatching(re *regexp.Regexp, s string) string {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if re.MatchString(w) {
			return w
		}
	}
	return ""
}

// ExerciseTarget says why a run shown under an exercise's heading is the
// exercise's target, or "": the sentence before it asks the reader to write
// or finish a program. exercise is the innermost heading's verdict
// (aside.ExerciseHeading), run whether the block is a run at a prompt.
func ExerciseTarget(exercise, run bool, before string) string {
	if !exercise || !run {
		return ""
	}
	verb := wordMatching(programVerb, before)
	if verb == "" {
		verb = programVerbCJK.FindString(before)
	}
	if verb == "" || wordMatching(programNoun, before) == "" && !programNounCJK.MatchString(before) && !sourceFile.MatchString(before) {
		return ""
	}
	return "the exercise's target: the prose asks the reader to " + strings.ToLower(verb) + " the program, and this run shows what the finished one prints"
}

// laterVariant is a heading that numbers a variant past the first: "Option
// 2", "Method B", "Вариант 2", "Opción 2", "方法2". The first variant is the
// path; the later ones are other ways to the same end, from the same start.
var laterVariant = regexp.MustCompile(`(?i)^\s*(?:\d+[.)]\s*)?(?:option|variant[e]?|method|approach|alternative|way|opci(?:ó|o)n|op(?:ç|c)(?:ã|a)o|m(?:é|e)todo|metoda|manera|forma|wariant|spos(?:ó|o)b|` +
	`вариант|способ|метод|варіант|спосіб|y(?:ö|o)ntem|se(?:ç|c)enek|方法|方式|选项|選項|オプション|パターン|案|방법|옵션)\s*(?:#|№|n[°º]\s*)?(?:[2-9]|[b-h](?:\W|$)|ii|iii|iv|二|三|四|２|３)`)

// LaterVariant: the heading names a variant past the first.
func LaterVariant(heading string) bool { return laterVariant.MatchString(heading) }
