// Package proseedit reads a sentence that tells the reader to change text in
// a file the page wrote before, in words rather than a new block: "change
// `VAR=0` to `VAR=1` in `tr.sh`", "`tr.sh`内の`VAR=0`を`VAR=1`に書き換える",
// "ersetze in `app.conf` `8080` durch `9090`". A reader makes the edit in
// their editor before the next step; the page shows no new text for it.
package proseedit

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/destination"
)

// Edit is one change a sentence asks for: in File, Old becomes New.
type Edit struct {
	File, Old, New string
	// Verb is the word that asks for it, as written.
	Verb string
}

// editVerb asks to change text, in the languages pages are written in.
var editVerb = regexp.MustCompile(`(?i)\b(?:change|replace|edit|modify|update|set)\b|書き換え|変更|置き換え|直し|修改|改为|改成|替换|바꾸|바꿔|수정|변경|` +
	`(?:ändern|ändere)|\b(?:ersetze[n]?|remplace[rz]?|modifie[rz]?|change[rz]|cambia[r]?|reemplaza[r]?|modifica[r]?|altera[r]?|substitu[ai]r?|sostituisci|cambi(?:a|are)|zmie[ńn]|zast[aą]p|değiştir)\b|измени|замени|зміни|заміни`)

// span is a code span.
var span = regexp.MustCompile("`([^`\n]+)`")

// Read is the edit a sentence asks for, false when it asks for none: it
// must have an editing verb, name exactly one of the files written so far
// (in a code span or bare), and hold two other code spans, the old text
// and the new, in that order.
func Read(sentence string, written func(name string) bool) (Edit, bool) {
	verb := editVerb.FindString(sentence)
	if verb == "" {
		return Edit{}, false
	}
	files := destination.FilesNamed(sentence, written)
	if len(files) != 1 {
		return Edit{}, false
	}
	var texts []string
	for _, m := range span.FindAllStringSubmatch(sentence, -1) {
		if t := m[1]; destination.CleanFileName(t) != files[0] && t != files[0] {
			texts = append(texts, t)
		}
	}
	if len(texts) != 2 || texts[0] == texts[1] {
		return Edit{}, false
	}
	return Edit{File: files[0], Old: texts[0], New: texts[1], Verb: verb}, true
}

// Apply is content with the edit made, false when the old text is not in
// it (the sentence does not fit the file as written).
func (e Edit) Apply(content string) (string, bool) {
	if !strings.Contains(content, e.Old) {
		return content, false
	}
	return strings.ReplaceAll(content, e.Old, e.New), true
}
