package leadin

import "regexp"

// A page marks a step the reader may take or leave in its own language:
// "Optionally, ...", "If you want a PDF, also install ...", "puede que
// necesites abrir el puerto", "si vous voulez", "必要に応じて", "如果需要".
// Such a step is still followed, but when it fails the failure is a minor
// note and the walk goes on: nothing on the path needs it. A step offered
// only in a case ("if you see the file, remove it", "si ves el archivo")
// is the same: when the case does not arise, its failure is no gap.

// optionalIntro opens a sentence that makes the step after it optional.
var optionalIntro = regexp.MustCompile(`(?i)^(?:\(optional\)|optional(?:ly)?\b|you\s+(?:could|can|may|might)\s+also\b|` +
	`(?:also,?\s+)?if\s+you\s+(?:want|wish|would\s+like|'d\s+like|like|need|prefer)\b|(?:also,?\s+)?you\s+(?:can|could|may)\s+(?:also\s+)?(?:use|try|run)\b|` +
	`also,?\s+instead\s+of\b|you\s+(?:may|might)\s+(?:need|have)\s+to\b|if\s+you\s+see\b|` +
	// Spanish, Portuguese, Italian
	`opcional(?:mente)?\b|si\s+(?:quieres|quiere|deseas|desea|lo\s+deseas|necesitas|necesita|ves|ve\s+el|aparece)\b|` +
	`puede\s+que\s+(?:necesites|tengas|necesite|tenga)\b|es\s+posible\s+que\s+(?:necesites|tengas)\b|` +
	`se\s+(?:quiser|desejar|precisar|você\s+(?:quiser|precisar|vir))\b|caso\s+(?:queira|precise|deseje)\b|` +
	`opzional(?:e|mente)\b|facoltativ\w*|se\s+(?:vuoi|volete|desideri|necessario)\b|` +
	// French, German
	`optionnel(?:le|lement)?\b|facultati(?:f|ve|vement)\b|si\s+vous\s+(?:voulez|souhaitez|le\s+souhaitez|avez\s+besoin|voyez|préférez)\b|` +
	`(?:vous\s+)?(?:pourriez|pouvez)\s+(?:aussi|également)\b|` +
	`wahlweise\b|falls\s+(?:sie|du|gewünscht|nötig|notwendig|erforderlich)\b|wenn\s+(?:sie|du)\s+(?:möchten|möchtest|willst|wollen|brauchen|brauchst)\b|` +
	// Russian
	`опционально|при\s+необходимости|если\s+(?:нужно|хотите|хочешь|необходимо|потребуется))|` +
	// CJK: the phrase anywhere in the sentence, not only at its start
	`\((?:optional|this\s+step\s+is\s+optional)\)|\bthis\s+step\s+is\s+optional\b|必要に応じて|任意で|お好みで|したい場合|可选|如果需要|如有需要|根据需要|필요하면|필요한\s*경우|원한다면|선택\s*사항`)

// optionalHeading is a heading for an optional part: "Optional: a PDF",
// "Building the docs (optional)", "Opcional", "(任意)".
var optionalHeading = regexp.MustCompile(`(?i)^(?:optional|opcional|optionnel|facultatif|opzionale)\b|^опционально|\((?:optional|opcional|optionnel|facultatif|任意|可选|선택)\)\s*$|\boptional\s+steps?\b|（(?:任意|可选)）\s*$`)

// optionalComment is a command's own comment that makes it optional or says
// its program may be missing: `hls --version  # may not be installed`,
// `# optional`, `# opcional`, `# si está instalado`.
var optionalComment = regexp.MustCompile(`(?i)\b(?:optional|opcional|optionnel|facultatif|if\s+(?:installed|available|present|needed)|may\s+not\s+be\s+(?:installed|available|present)|might\s+not\s+be\s+installed|` +
	`si\s+(?:est[áa]\s+instalad[oa]|lo\s+tienes|existe|hace\s+falta)|puede\s+(?:que\s+no\s+est[ée]|no\s+estar)\s+instalad[oa]|pode\s+não\s+estar\s+instalad[oa]|se\s+(?:estiver\s+instalad[oa]|existir)|` +
	`si\s+(?:installé|disponible)|peut\s+ne\s+pas\s+être\s+installé|falls\s+(?:installiert|vorhanden))|` +
	`если\s+установлен|任意|可选|インストールされていれば|入っていれば`)

// ifPresent is an optional step's condition on the reader's machine (it may
// need the step, it may have the file), not the reader's wish.
var ifPresent = regexp.MustCompile(`(?i)\b(?:you\s+(?:may|might)\s+(?:need|have)\s+to|if\s+you\s+see|puede\s+que\s+(?:necesites|tengas|necesite|tenga)|es\s+posible\s+que|` +
	`si\s+(?:ves|ve\s+el|aparece)|se\s+você\s+vir|si\s+vous\s+voyez|(?:pourriez|pouvez)\s+avoir\s+besoin|falls\s+(?:nötig|notwendig|erforderlich))|при\s+необходимости|必要に応じて|如有需要|根据需要|필요한\s*경우`)

// IfPresent reports whether an optional sentence's condition is the
// reader's machine ("you may need to", "if you see the file").
func IfPresent(sentence string) bool { return ifPresent.MatchString(sentence) }

// Optional reports whether a sentence makes the step after it optional.
func Optional(sentence string) bool { return optionalIntro.MatchString(sentence) }

// OptionalHeading reports whether a heading names an optional part.
func OptionalHeading(heading string) bool { return optionalHeading.MatchString(heading) }

// OptionalComment reports whether a command's comment makes it optional.
func OptionalComment(comment string) bool { return optionalComment.MatchString(comment) }
