package leadin

import "testing"

func TestIntroducesOutput(t *testing.T) {
	for text, want := range map[string]bool{
		"You should see:":                                true,
		"Run it. It prints:":                             true,
		"You get:":                                       true,
		"You see:":                                       true,
		"The program prints a greeting:":                 true,
		"The result is:":                                 true,
		"Print the number of lines in the list:":         false, // an instruction
		"Display the files of the folder:":               false,
		"Return to the project folder and build it:":     false,
		"Save the program as hello.py:":                  false,
		"As you see, the loop ends early. Change it to:": false,
		"Now paste the following function to print it:":  false,
		"Show the output:":                               true, // the object is output
		"Each block is a program. It outputs the total:": true,
		"Your terminal shows:":                           true, // the screen shows what follows
		"The console then displays the new count:":       true,
		"The diff shows:":                                true,
		"Show the hidden files too:":                     false, // an instruction, no colon after the verb
	} {
		if got := IntroducesOutput(text); got != want {
			t.Errorf("IntroducesOutput(%q) = %v, want %v", text, got, want)
		}
	}
}

// The lead-ins of pages in other languages, in sentences of our own.
func TestIntroducesOutputInOtherLanguages(t *testing.T) {
	for text, want := range map[string]bool{
		"Al ejecutarlo, verás lo siguiente:":                                  true, // es
		"Você verá a saída abaixo:":                                           true, // pt
		"Vous devriez voir ceci :":                                            true, // fr
		"Danach sehen Sie die folgende Ausgabe:":                              true, // de
		"Dovresti vedere qualcosa del genere:":                                true, // it
		"Potresti ottenere un risultato simile a:":                            true,
		"Se esegui il comando, il risultato potrebbe essere simile a questo:": true,
		"Daarna zie je het volgende:":                                         true,  // nl
		"Zobaczysz taki wynik:":                                               true,  // pl
		"Şu çıktıyı göreceksiniz:":                                            true,  // tr
		"Bạn sẽ thấy kết quả sau:":                                            true,  // vi
		"Anda akan melihat hasilnya:":                                         true,  // id
		"Запустив тесты, мы увидим примерно следующее:":                       true,  // ru
		"Після запуску ви побачите:":                                          true,  // uk
		"実行すると、次のように表示されます。":                                                  true,  // ja
		"运行后会看到如下输出：":                                                         true,  // zh
		"다음과 같은 결과를 볼 수 있습니다:":                                                true,  // ko
		"Crea el archivo y escribe lo siguiente:":                             false, // es: write, not output
		"Ejecuta el programa con este comando:":                               false,
		"Speichern Sie den Code in der Datei main.go:":                        false, // de
		"Создайте файл со следующим содержимым:":                              false, // ru
	} {
		if got := IntroducesOutput(text); got != want {
			t.Errorf("IntroducesOutput(%q) = %v, want %v", text, got, want)
		}
	}
	for text, want := range map[string]bool{
		"мы увидим примерно следующее:": true,
		"verás algo así:":                        true,
		"Die Ausgabe kann abweichen:":            true,
		"La sortie pourrait ressembler à cela :": true, // fr: could look like
		"Die Ausgabe könnte so aussehen:":        true,
		"La salida podría verse así:":            true,
		"Vous verrez la sortie exacte :":         false,
	} {
		if got := Tolerant.MatchString(text); got != want {
			t.Errorf("Tolerant(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestAsksWhatHappens(t *testing.T) {
	for text, want := range map[string]bool{
		"What happens if you put a space before the equals sign?":        true,
		"1. Explain what each command prints.":                           true,
		"2. Que se passe-t-il si la variable n'existe pas ?":             true,
		"Expliquez l'effet de chaque commande.":                          true,
		"Was passiert, wenn die Datei fehlt?":                            true,
		"Now let me explain what happened: the shell expanded the glob.": false, // the page explains, not the reader
		"This step installs the compiler.":                               false,
		"Can you guess why the second command prints nothing?":           true,
	} {
		if got := AsksWhatHappens(text); got != want {
			t.Errorf("AsksWhatHappens(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestFailsAfter(t *testing.T) {
	for text, want := range map[string]bool{
		"This fails: the file is not there yet.":                                  true,
		"restituirà un errore perché il linker non trova il simbolo.":             true,
		"El comando dará un error, porque falta la biblioteca.":                   true,
		"Cela renverra une erreur : le fichier manque.":                           true,
		"Das gibt einen Fehler, weil die Datei fehlt.":                            true,
		"It prints the total. Later, an error in the config will fail the build.": false, // not the first sentence
		"Now build it.": false,
		"This step fails, as expected, because the file is missing:": false, // it leads into the next block
	} {
		if got := FailsAfter(text); got != want {
			t.Errorf("FailsAfter(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestCommentSaysFails(t *testing.T) {
	for _, c := range []string{"fails: planet is read-only", "this will not work", "Error!", "-> error", "Fehler: schreibgeschützt",
		"ne marche pas", "no funciona", "エラー", "报错", "doesn't work, see below"} {
		if !CommentSaysFails(c) {
			t.Errorf("%q says the command fails", c)
		}
	}
	// Comments about handling errors, or naming a step, say nothing of this
	// command failing.
	for _, c := range []string{"", "exit on error", "hide the errors", "print the planet", "works on Ubuntu", "show the error log", "failover address"} {
		if CommentSaysFails(c) {
			t.Errorf("%q does not say the command fails", c)
		}
	}
}

func TestSeenOnScreenIntroducesOutput(t *testing.T) {
	for _, s := range []string{"If you can see in the screen", "When you see this on your screen", "実行され画面に"} {
		if !IntroducesOutput(s) {
			t.Errorf("%q introduces output", s)
		}
	}
}

func TestOneOfNote(t *testing.T) {
	for text, want := range map[string]bool{
		"depending on your environment, you might find that only one of these ways works:": true,
		"Only one of them will work on a given machine.":                                   true,
		"One of the following commands should work:":                                       true,
		"Use whichever works for you.":                                                     true,
		"Both of these commands work.":                                                     false,
		"Only one of these files is needed.":                                               false,
	} {
		if got := OneOfNote.MatchString(text); got != want {
			t.Errorf("OneOfNote(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestAsksToRun(t *testing.T) {
	for sentence, want := range map[string]string{"Now run X to build it.": "run", "Ejecuta X en la terminal.": "Ejecuta", "If you run X, it fails.": "", "Do not run X.": "", "X prints the date.": "", "Initialisez le dépôt avec la commande X.": "avec la commande"} {
		if got := AsksToRun(sentence); got != want {
			t.Errorf("AsksToRun(%q) = %q, want %q", sentence, got, want)
		}
	}
}

// "It should return" leads into output even when the output's first word
// is a program's name; a sentence about output that is not a claim does not.
func TestShouldShow(t *testing.T) {
	for text, want := range map[string]bool{
		"It should return the installed version, for example:": true,
		"Ele deve retornar a versão do Ruby, por exemplo:":     true,
		"Debería mostrar algo así:":                            true,
		"Es sollte die Version ausgeben:":                      true,
		"The next block is more commands, not output:":         false,
		"Return to the project folder:":                        false,
	} {
		if got := ShouldShow(text); got != want {
			t.Errorf("ShouldShow(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestReferenceHeading(t *testing.T) {
	for heading, want := range map[string]bool{
		"## Resumen de comandos":       true,
		"## Cheat sheet":               true,
		"### Comandi utili":            true,
		"## まとめ":                       true,
		"## Useful commands":           true,
		"## Passing by reference":      false,
		"## Step 2: build the archive": false,
		"## A summary of what we built in this long lesson today": false,
	} {
		if got := ReferenceHeading(heading); got != want {
			t.Errorf("ReferenceHeading(%q) = %v, want %v", heading, got, want)
		}
	}
}

func TestWhenRun(t *testing.T) {
	for text, want := range map[string]bool{
		"When you run this script, you should see the inputs.": true,
		"Al ejecutar el script verás tres líneas.":             true,
		"このスクリプトを実行すると次のように表示されます。":                            true,
		"Run the tests when you are done.":                     false,
		"This script reads its input from a file.":             false,
	} {
		if got := WhenRun.MatchString(text); got != want {
			t.Errorf("WhenRun(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestSupposesFile(t *testing.T) {
	for text, want := range map[string]bool{
		"Suppose you have a file named myscript.sh.":               true,
		"Giả sử bạn có một file tên là myscript.sh.":               true,
		"Imaginons que vous avez un fichier script.sh avec ceci :": true,
		"Допустим, у вас есть файл run.sh.":                        true,
		"Create a file named myscript.sh.":                         false,
		"You have now written myscript.sh; run it.":                false,
	} {
		if got := SupposesFile.MatchString(text); got != want {
			t.Errorf("SupposesFile(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestOutputLabelAlone(t *testing.T) {
	for _, s := range []string{"Sortie :", "Salida:", "Вывод:", "输出：", "Ausgabe:"} {
		if !IntroducesOutput(s) {
			t.Errorf("IntroducesOutput(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"Sortie du dossier, puis relancez :", "Ausgabeformat wählen"} {
		if IntroducesOutput(s) {
			t.Errorf("IntroducesOutput(%q) = true, want false", s)
		}
	}
}

func TestAsksToRunByNamingTheCommand(t *testing.T) {
	for s, want := range map[string]bool{
		"No caso do programa acima, o comando seria X.":  true, // Portuguese "no" is "in the"
		"Para criar o executável usaríamos o comando X.": true,
		"To build it, the command would be X.":           true,
		"There is no need to run X here.":                false,
		"No ejecutes X todavía.":                         false,
		"Don't run X yet.":                               false,
	} {
		if got := AsksToRun(s) != ""; got != want {
			t.Errorf("AsksToRun(%q) = %q, want asking %v", s, AsksToRun(s), want)
		}
	}
}

// "The following commands" in other languages makes a block of lines that
// read as commands a block of commands, as "commands" does in English.
func TestCommandInOtherLanguages(t *testing.T) {
	for text, want := range map[string]bool{
		"solo es necesario ejecutar los siguientes comandos:": true,
		"exécutez les commandes suivantes :":                  true,
		"Führen Sie die folgenden Befehle aus:":               true,
		"以下のコマンドを実行します":                                       true,
		"El resultado es el siguiente:":                       false,
	} {
		if got := Command.MatchString(text); got != want {
			t.Errorf("Command(%q) = %v, want %v", text, got, want)
		}
	}
}
