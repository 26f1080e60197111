// Package leadin reads what the sentence leading into a code block says the
// block is: output a command prints (and whether exactly: "something like"
// is an example, "may vary" a warning), a failure on purpose, or commands
// to run. Tutorials say these things in a handful of ways; the ways are
// here, in one place, so the reader (package reading) and the rules that
// weigh a sentence agree on them.
package leadin

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/spec/markdown"
)

var (
	// Output: the sentence says output follows ("You should see:", "it
	// prints", "the result is").
	Output = regexp.MustCompile(`(?i)you should (?:now )?see|you(?:'ll| will) see|\byou (?:get|see)\s*:\s*$|should (?:now )?(?:print|output|display|show|return|look like)|` +
		`\bprints?\b|\boutputs?\b|\bthe output\b|expected output|\breturns?\b|\bdisplays?\b|\bresults? (?:is|should be|looks like)|\bresult:|looks like this|` +
		`\b(?:will|should|may|might) look (?:something )?like|\bresponds? with\b|\bresponse\b|\b(?:it|which|and) (?:answers|replies|says|greets)\b|` +
		`\b(?:terminal|console|screen|shell|window|prompt)\s+(?:now\s+|then\s+)?(?:shows|displays|reads|says|answers|replies)\b|\b(?:shows|displays|answers|replies)\s*:\s*$|` +
		`\b(?:if|when|once) you (?:can )?see\b|\b(?:on|in) (?:the|your) screen\b|` + otherOutput)
	// StrongOutput leaves no doubt that output follows: the block is
	// compared even if its first word is a program ("perl 5.36.0").
	StrongOutput = regexp.MustCompile(`(?i)you should (?:now )?see|you(?:'ll| will) see|should (?:now )?(?:print|output|display|show|return|look)|` +
		`expected output|something like|similar to|looks? like|\bit (?:prints|shows|returns|displays|answers|responds|outputs)\b|` +
		`(?:prints|output|result|response)\s*:?\s*$|` + otherShould)
	// Example introduces an example of output, but only for a block
	// that is text: "a config similar to this" is a file, not output.
	Example = regexp.MustCompile(`(?i)\bsomething like\b|\bsimilar to\b`)
	// Run: the sentence asks to run the block.
	Run = regexp.MustCompile(`(?i)\b(?:run|type|execute|enter)\b|` + otherRun)
	// Command makes an untagged block commands when it reads as them.
	Command = regexp.MustCompile(`(?i)\b(?:install|launch|invoke|compile|build|commands?|terminal|shell|console)\b|` + otherCommand)
	// Tolerant: output that is only an example of what to expect.
	Tolerant = regexp.MustCompile(`(?i)\bsomething like\b|\bsimilar to\b|\b(?:will|should|may|might) look (?:something )?like\b|\broughly\b|` +
		`\be\.g\.|\bfor example\b|\bfor instance\b|\bresembl|\balong the lines of\b|\bapproximately\b|` + differsPhrase + `|` + otherTolerant + `|` + otherDiffers)
	// Differs says the reader's output may not be the one shown: it is
	// honoured before the block and in the paragraph just after it.
	Differs = regexp.MustCompile(`(?i)` + differsPhrase + `|` + otherDiffers)
	// Fail: the tutorial says the command fails, on purpose.
	Fail = regexp.MustCompile(`(?i)\b(?:will|should|is going to|would) fail\b|\bfails?,? as expected\b|\bexpected to fail\b|` +
		`\byou(?:'ll| will| should)? (?:get|see) an? (?:error|failure)\b|\b(?:gives|returns|throws|raises|produces) an? error\b|\bthis (?:fails|errors)\b|` +
		`\b(?:fails|errors out) (?:on purpose|deliberately|intentionally)\b|\b(?:will|would|should)\s+(?:result\s+in|cause|raise|give|throw)\s+an?\s+error\b|\b(?:exits|ends) with (?:a )?(?:non-zero|nonzero|an error) (?:status|code)\b|` + otherFail)
)

// differsPhrase: "may vary", "might differ", "may be slightly different",
// "could look different", "will vary". Not "will be different", which
// announces a change the output then shows.
const differsPhrase = `\b(?:(?:may|might|can|could)\s+(?:(?:well|also)\s+)?(?:vary|differ|(?:be|look|appear)\s+(?:(?:a\s+(?:little|bit)|slightly|somewhat|quite|very)\s+)?different)|will\s+(?:vary|differ))\b`

// failAfter: the sentence after a command says it failed.
var failAfter = regexp.MustCompile(`(?i)^(?:this|that|it|the command)\s+(?:fails|will fail|should fail|errors out|exits with an error)\b`)

// RunAfterOutput: "the output goes to out.txt; run:" names output, then says
// to run: the block is a command.
func RunAfterOutput(prose string) bool {
	locs := Output.FindAllStringIndex(prose, -1)
	if len(locs) == 0 {
		return false
	}
	return Run.MatchString(prose[locs[len(locs)-1][1]:])
}

// pasteCode has the reader paste the block ("paste the following function to ... print the output"): code, not output.
var pasteCode = regexp.MustCompile(`(?i)\b(?:paste|copy)\s+the\s+following\s+(?:[^.:!?\s]+\s+){0,3}?(?:function|code|method|class|declaration|struct|type)s?\b`)

// IntroducesOutput: the sentence leading into a block says output follows
// ("You should see:"). An earlier sentence of a longer paragraph that
// mentions output ("output is HTML. Let's try converting:") does not.
func IntroducesOutput(text string) bool {
	if last := LastSentence(text); DescribesOutput(last) || pasteCode.MatchString(last) {
		return !pasteCode.MatchString(last)
	}
	sentences := prose.Sentences(strings.Join(strings.Fields(text), " "))
	return len(sentences) <= 2 && slices.ContainsFunc(sentences, DescribesOutput)
}

// imperativeOutputVerb: a sentence that opens with one of Output's
// verbs asks the reader to do it ("Print the number of lines:", "Display
// the files", "Return to the folder"): an instruction, not a description
// of what a command prints.
var imperativeOutputVerb = regexp.MustCompile(`^(?:Print|Display|Output|Return|Show)\s+`)

// DescribesOutput: the sentence says output follows, read without a
// leading imperative verb.
func DescribesOutput(sentence string) bool {
	s := strings.TrimSpace(sentence)
	if loc := imperativeOutputVerb.FindStringIndex(s); loc != nil {
		s = s[loc[1]:]
	}
	return Output.MatchString(s)
}

// LastSentence is the last sentence of a paragraph: the one that leads into
// the block.
func LastSentence(prose string) string {
	prose = strings.TrimSpace(strings.Join(strings.Fields(prose), " "))
	trimmed := strings.TrimRight(prose, ".:!? ")
	for i := len(trimmed) - 1; i > 0; i-- {
		if strings.ContainsRune(".!?", rune(trimmed[i-1])) && trimmed[i] == ' ' {
			return prose[i+1:]
		}
	}
	return prose
}

// asksWhatHappens is a question to the reader about what a command does,
// or an order to try it and explain the result; answerQuestions an order
// to answer the questions that follow.
var (
	asksWhatHappens = regexp.MustCompile(`(?i)\bwhat happens\b|\bwhat do you (?:see|notice|observe|get)\b|\bwhat does\b|\bexplain (?:what|why|the|their|its)\b|` +
		`\bcomment on\b|\bpredict\b|\bcan you (?:guess|tell|explain)\b|\bque fait\b|` + otherAsksWhatHappens)
	answerQuestions = regexp.MustCompile(`(?i)\banswer the (?:following |questions? )|r(?:é|e)pondez aux questions|responde(?:d)? (?:a )?las preguntas|` +
		`beantworten sie die (?:folgenden )?fragen|rispondi alle domande|odpowiedz na pytania|ответьте на вопросы|回答(?:下列|以下)问题|質問に答え|질문에 답`)
)

// AsksWhatHappens: the prose after a block (after) turns its commands into
// an experiment: a question about what they do ("What happens if the
// variable does not exist?"), an order to explain their effect, or to
// answer the questions that follow. Whatever the commands do is the answer
// the reader observes, so a failure among them is no gap. A question needs
// its question mark; an order to explain ("Explain what each one does.")
// its verb at the start of a sentence or list item.
func AsksWhatHappens(after string) bool {
	for _, s := range prose.Sentences(strings.Join(strings.Fields(after), " ")) {
		if answerQuestions.MatchString(s) {
			return true
		}
		loc := asksWhatHappens.FindStringIndex(s)
		if loc == nil {
			continue
		}
		if strings.Contains(s[loc[0]:], "?") || strings.TrimLeft(s[:loc[0]], "0123456789.)-* ") == "" {
			return true
		}
	}
	return false
}

// FailsAfter: the paragraph after a command's block says it fails, in
// English ("This fails: ...") or in its first sentence in any language the
// lead-ins know ("restituirà un errore perché...", "dará un error").
func FailsAfter(after string) bool {
	after = strings.TrimSpace(after)
	if failAfter.MatchString(after) {
		return true
	}
	sentences := prose.Sentences(strings.Join(strings.Fields(after), " "))
	if len(sentences) == 0 || strings.HasSuffix(strings.TrimSpace(sentences[0]), ":") {
		return false // "This step fails, as expected:" leads into the next block
	}
	return Fail.MatchString(sentences[0])
}

// commentFails: a command's own comment says it fails ("# fails:
// read-only", "# error", "# this will not work", "# Fehler"). A comment is
// terse, so a bare "error" counts when it opens the comment, after an arrow.
var commentFails = regexp.MustCompile(`(?i)^(?:→|->|=>|!|\s)*(?:(?:error|erreur|fehler|errore|erro|hata|błąd|lỗi|chyba)\b|ошибка|помилка|エラー|错误|錯誤|报错|報錯|오류|에러)|` +
	`\b(?:fails?|failed|will fail|won't work|doesn't work|does not work|will not work|not allowed|not permitted|gives an error|throws an error|raises an error)\b|` +
	`funktioniert nicht|geht nicht|schl(?:ä|a)gt fehl|ne marche pas|ne fonctionne pas|(?:é|e)choue|no funciona|falla\b|n(?:ã|a)o funciona|\bfalha\b|non funziona|fallisce|` +
	`не работает|не сработает|не працює|動きません|失败|失敗|不行|작동하지|안 됩니다|` + otherFail)

// CommentSaysFails reports whether a command's own comment (its text after
// `#`) says the command fails, as a lesson's demonstration of an error.
func CommentSaysFails(comment string) bool {
	return comment != "" && commentFails.MatchString(comment)
}

// AnotherTerminal: the prose runs the command beside the others ("in
// another terminal", "open a new tab"), so it keeps running while they go on.
var AnotherTerminal = regexp.MustCompile(`(?i)\b(?:in|from|open|using)\s+(?:another|the\s+other|a\s+new|a\s+second|a\s+separate|another\s+new|a\s+different)\s+` +
	`(?:terminal|shell|tab|window|console|session)\b`)

// Prose may offer commands as ways to the same end of which only one may
// work on the reader's system ("depending on your setup, only one of these
// works"). OneOfNote is such a sentence; WaysCounted how many ways it counts.
var (
	OneOfNote = regexp.MustCompile(`(?i)\bonly\s+one\s+of\s+(?:these|them|those|the\s+following)\b(?:\s+\w+){0,3}?\s+(?:(?:may|might|will|would|can)\s+)?works?\b|` +
		`\b(?:one|either)\s+of\s+(?:these|them|those|the\s+following)\b(?:\s+\w+){0,3}?\s+(?:may|might|should|will|is\s+likely\s+to)\s+(?:not\s+)?work\b|` +
		`\bwhichever\s+(?:one\s+|of\s+(?:these|them)\s+)?works\b`)
	oneOfCounts = map[string]int{"two": 2, "both": 2, "three": 3, "four": 4}
	countWord   = regexp.MustCompile(`(?i)\b(two|both|three|four)\b`)
)

// WaysCounted is the number of ways the prose counts, -1 when it counts none.
func WaysCounted(prose string) int {
	if m := countWord.FindStringSubmatch(prose); m != nil {
		return oneOfCounts[strings.ToLower(m[1])]
	}
	return -1
}

// A sentence asks its reader to run a command written inline when it uses
// a verb of running in the page's language, and does not suppose or deny it.
var (
	// runVerb asks the reader to run, type or execute something, in the
	// languages tutorials are written in.
	runVerb = regexp.MustCompile(`(?i)\b(?:run|running|execute|type|enter|invoke|launch|start)\b|` +
		`\b(?:ejecut\w*|corr[ae]\b|escrib[ae]\b|teclea|rode\b|rodar|execut[ea]r?\b|digit[ea]r?\b|exécut\w*|lance[rz]?\b|tape[rz]\b|` +
		`ausführ\w*|führ\w* \S+ aus|starte\w*|gib\w* \S+ ein|esegu\w*|lancia\w*|digita\w*|uruchom\w*|wykonaj\w*|wpisz\w*)|` +
		`запуст|выполн|введите|実行|入力|打って|运行|執行|执行|输入|輸入|실행|입력|` +
		// "with the command `git init`": the sentence hands the step to it.
		`\b(?:with|using|via)\s+the\s+(?:following\s+)?command\b|\bavec\s+la\s+commande\b|\bcon\s+el\s+comando\b|\bcom\s+o\s+comando\b|` +
		`\bmit\s+dem\s+befehl\b|\bcon\s+il\s+comando\b|командой|使用命令|用命令|コマンドで|명령어로|komutuyla|` +
		// "the command would be `gcc main.c`", "we would use the command": it
		// names the step's command.
		`\bthe\s+command\s+(?:is|would\s+be|will\s+be)\b|\buse\s+the\s+command\b|\bo\s+comando\s+(?:seria|será|é)|\busar\S*\s+o\s+comando\b|` +
		`\bel\s+comando\s+(?:es|sería|será)|\busar\S*\s+el\s+comando\b|\bla\s+commande\s+(?:est|serait|sera)\b|\butilis\S*\s+la\s+commande\b|` +
		`\bder\s+befehl\s+(?:ist|lautet)\b|\bil\s+comando\s+(?:è|sarebbe|sarà)|\busa\S*\s+il\s+comando\b`)
	// Supposes: a sentence that supposes the command rather than asks for it.
	Supposes = regexp.MustCompile(`(?i)^(?:if|when|whenever|once|after|before|unless|si|cuando|wenn|falls|quand|se|jeśli)\b|^если`)
)

// englishRun: an English verb of running where it asks for the action: at
// the sentence's start after an adverb ("Now run"), after a comma or "and
// then", or after "you can", "you should", "please".
var (
	englishRun = regexp.MustCompile(`(?i)^(?:(?:now|then|next|first|finally|simply|just|again|also|so|ok|okay),?\s+)*(run|execute|type|enter|invoke|launch|start)\b|` +
		`(?:,|\band(?:\s+then)?|\bthen|\byou\s+(?:can|could|should|need\s+to|must|will\s+need\s+to)|\bplease|\bto\s+do\s+(?:so|this|that),?)\s+(run|execute|type|enter|invoke|launch|start)\b`)
	englishVerb = regexp.MustCompile(`(?i)^(?:run|running|execute|type|enter|invoke|launch|start)$`)
	// A bare "no" negates in English ("no need to") and Spanish ("no
	// ejecutes"), but is "in the" in Portuguese ("no caso", "no terminal").
	negated = regexp.MustCompile(`(?i)\b(?:not|never|nothing|no\s+(?:need|longer|more|such)|don't|doesn't|didn't|without|nunca|nicht|kein\w*|jamais|nie)\b|` +
		`\bno\s+(?:ejecut|corr|escrib|tecle|us|hag|lo|la|los|las|se|es)\w*|しない|不要|않`)
)

// AsksToRun is the verb by which a sentence asks the reader to run
// something, "" when it does not (it supposes, denies, or only mentions).
func AsksToRun(sentence string) string {
	if Supposes.MatchString(sentence) || negated.MatchString(sentence) {
		return ""
	}
	if m := englishRun.FindStringSubmatch(sentence); m != nil {
		return strings.TrimSpace(m[1] + m[2])
	}
	if verb := runVerb.FindString(sentence); verb != "" && !englishVerb.MatchString(verb) {
		return verb
	}
	return ""
}

// How pages write commands into sentences and list items: a clause that
// supposes the command, one command offered instead of another, a name given
// as an example, a step's marker and label before its command.
var (
	// ConditionalClause: the command stands in a clause that supposes it
	// ("... if you run `x` inside a repository").
	ConditionalClause = regexp.MustCompile(`(?i)(?:^|[\s,;(])(?:if|when|whenever|unless|si|cuando|wenn|falls|quand|lorsque|se|jeśli|если|eğer|nếu|jika|kalau)\s|如果|假如|要是|若|もし|만약`)
	// Disjunction is all the text between two commands of a sentence that
	// offers the second instead of the first ("`make` or `make all`", "或",
	// "または", "또는", "/"): the reader runs one.
	Disjunction = regexp.MustCompile(`(?i)^[\s,]*(?:or|o|ou|oder|of|lub|или|або|veya|ya da|hoặc|atau|或者?|または|あるいは|もしくは|또는|혹은|/)[\s,]*$`)
	// ExampleName: the sentence gives a name only as an example ("e.g.
	// `program.py`"): a way of working, not this page's step.
	ExampleName = regexp.MustCompile(`(?i)\b(?:e\.\s?g\.|z\.\s?B\.|p\.\s?ej\.|par\s+exemple|por\s+ejemplo|for\s+example|zum\s+Beispiel|例えば|比如|例如)`)
)

// StepLabel names the step before its command: a few words and a colon
// ("Install:", "Paso 2:"), or a short label in a script written without
// spaces ("安装方法").
var StepLabel = regexp.MustCompile("^(?:[^`:：\n]{1,40}[:：]|[\\p{Han}\\p{Hiragana}\\p{Katakana}\\p{Hangul}]{1,8})\\s*")

// ExampleLabel calls what follows an example, a form or a result, not a
// step: "Example:", "Syntax:", "Output:", "例:".
var ExampleLabel = regexp.MustCompile(`(?i)\b(?:example|e\.g|syntax|usage|output|result|note|tip|warning|ejemplo|sintaxis|salida|beispiel|syntax|ausgabe|exemple|sortie|esempio|sintassi|exemplo|przykład|пример|синтаксис)|例|用法|语法|構文|出力|結果|输出|결과|예시|문법`)

// StepMarker opens a course's step before its command: `[EC]`, an arrow, a
// list's dash or star.
var StepMarker = regexp.MustCompile(`^(?:\[[A-Za-z]{1,4}\]|[→▶►•➜]|-\s|\*\s)\s*`)

// AnnouncesFailure: the sentence leading into a command says it fails. A
// paragraph that recalls an earlier error ("the shell returns an error as
// we saw above. We can use this to see that x is present:") does not.
func AnnouncesFailure(prose string) bool {
	last := LastSentence(prose)
	if Fail.MatchString(last) {
		return true
	}
	// "This command fails on purpose. Run it:": a short last sentence hands
	// over to the one before it.
	return len(strings.Fields(last)) <= 4 && Fail.MatchString(prose)
}

// exampleSpan is an inline code span after an example marker.
var exampleSpan = regexp.MustCompile("`([^`\n]+)`")

// NamesAnExample: the command uses a name the page gives only as an example
// ("save it as, e.g., `program.py`"), anywhere in the page's paragraphs.
func NamesAnExample(blocks []markdown.Block, cmd string) bool {
	for _, b := range blocks {
		if b.Kind != markdown.BlockParagraph {
			continue
		}
		// Sentences would split "z.B." from its name: the text just after
		// each marker is read instead.
		for _, at := range ExampleName.FindAllStringIndex(b.Text, -1) {
			after := b.Text[at[1]:min(len(b.Text), at[1]+60)]
			for _, m := range exampleSpan.FindAllStringSubmatch(after, -1) {
				if slices.Contains(strings.Fields(cmd), strings.TrimSpace(m[1])) {
					return true
				}
			}
		}
	}
	return false
}

// shouldShow says what a command should print, show or return follows
// ("It should return:", "deve retornar, por exemplo:").
var shouldShow = regexp.MustCompile(`(?i)\bshould (?:now )?(?:print|output|display|show|return)\b|` + otherShould)

// ShouldShow: the sentence says what the command before should print
// follows: output, even when its first word is a program's name (`ruby
// 3.1.2p20 ...`).
func ShouldShow(sentence string) bool { return shouldShow.MatchString(sentence) }

// referenceHeading names a section that sums up commands rather than walking
// through them: a summary, a cheat sheet, useful commands, tips.
var referenceHeading = regexp.MustCompile(`(?i)\b(?:summary|cheat\s*-?sheet|quick\s+reference|command\s+reference|reference|useful\s+commands|common\s+commands|tips(?:\s+and\s+tricks)?|` +
	// es, pt, it, fr, de, nl
	`resumen|referencia|chuleta|consejos|comandos\s+(?:útiles|utiles|comunes)|resumo|refer(?:ê|e)ncia|dicas|comandos\s+(?:ú|u)teis|riepilogo|riassunto|comandi\s+utili|suggerimenti|` +
	`r(?:é|e)sum(?:é|e)|aide-m(?:é|e)moire|astuces|commandes\s+utiles|zusammenfassung|spickzettel|n(?:ü|u)tzliche\s+befehle|tipps|samenvatting|handige\s+commando)\b|` +
	// ja, zh, ko, ru, uk
	`まとめ|チートシート|よく使う(?:コマンド)?|总结|總結|速查|常用命令|요약|치트\s*시트|자주\s*쓰는|шпаргалка|итоги|полезные\s+команды|корисні\s+команди`)

// ReferenceHeading reports whether a heading names a section that sums up
// commands (a summary, a cheat sheet, useful commands): its commands are
// forms on sample names, not this page's steps.
// A long heading that only mentions one ("Passing arguments by reference
// in C functions") names its own subject.
func ReferenceHeading(heading string) bool {
	return len(strings.Fields(heading)) <= 5 && referenceHeading.MatchString(heading) && !byReference.MatchString(heading)
}

// byReference is the programming term, not a reference section.
var byReference = regexp.MustCompile(`(?i)\bby\s+reference\b|\breference\s+(?:types?|counting|semantics)\b`)

// WhenRun is a sentence that tells what running the file just shown does
// ("when you run this script, you should see ...", "al ejecutar el
// script", "実行すると"): the reader runs it, though the page gives no
// command for it.
var WhenRun = regexp.MustCompile(`(?i)\b(?:when|once|after|if)\s+you\s+(?:run|execute|start)\s+(?:this|the|it|that|your)\b|` +
	`\b(?:al|tras)\s+ejecutar(?:lo)?\b|\bquando\s+(?:voc(?:ê|e)\s+)?execut|\b(?:quand|lorsque)\s+vous\s+(?:ex(?:é|e)cutez|lancez)\b|` +
	`\bwenn\s+(?:du|sie|man)\s+(?:das|dieses|es)\b[^.]{0,40}\b(?:ausf(?:ü|u)hr|startest|starten)|\beseguendo(?:lo)?\b|` +
	`実行すると|运行后|执行后|실행하면|при запуске|запустив`)

// SupposesFile is a sentence that supposes the reader has a file of their
// own ("suppose you have a file named myscript.sh", "imaginons que vous
// avez un fichier script.sh"): the commands on it that follow show how one
// would use such a file.
var SupposesFile = regexp.MustCompile(`(?i)\b(?:suppose|assume|imagine|let'?s say)\s+(?:that\s+)?you(?:'ve|\s+have|\s+had)\b|\bsupongamos\b|\bsup(?:ó|o)n\s+que\b|\bimagin(?:a|emos|ons|ez)\s+que\b|` +
	`\bsupponiamo\b|\bimmagina\b|\bangenommen\b|\bnehmen\s+wir\s+an\b|\bsupposons\b|\bsuponha\b|\bgi(?:ả|a)\s+s(?:ử|u)(?:\s|$)|допустим|предположим|\bzałóżmy\b|\bvarsayal(?:ı|i)m|假设|假如|仮に|가정`)
