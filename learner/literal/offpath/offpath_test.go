package offpath

import "testing"

func TestExerciseTarget(t *testing.T) {
	for _, tc := range []struct {
		name          string
		exercise, run bool
		before        string
		want          bool
	}{
		{"a program to finish, then its run", true, true, "Finish the program greet.c so that it prints its first argument. A run looks like this:", true},
		{"in another language", true, true, "Completar el programa `saludo.c` para que imprima el mensaje. Un ejemplo de ejecución es:", true},
		{"a function to write, in French", true, true, "Écrivez une fonction qui additionne deux nombres. Par exemple :", true},
		{"not under an exercise", false, true, "Finish the program greet.c so that it prints its first argument:", false},
		{"an exercise's command to run", true, true, "Run the tests and read what they say:", false},
		{"the program's text to write, not a run", true, false, "Write this program in greet.c:", false},
		{"a verb with nothing written", true, true, "Change into the folder and list it:", false},
	} {
		if got := ExerciseTarget(tc.exercise, tc.run, tc.before) != ""; got != tc.want {
			t.Errorf("%s: ExerciseTarget = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSentences(t *testing.T) {
	if !Alternative("Alternatively, you can build it from source") || Alternative("Build it from source") {
		t.Error("Alternative")
	}
	for _, s := range []string{"或", "ou", "Oder:", "或者使用图形界面", "Alternativement, compilez-le"} {
		if !Alternative(s) {
			t.Errorf("Alternative(%q) = false", s)
		}
	}
	for _, s := range []string{"Ouvrez le fichier", "Oder the list", "或许需要"} {
		if Alternative(s) {
			t.Errorf("Alternative(%q) = true", s)
		}
	}
	if ReadersOwn("If you manage your own virtualenv, activate it") == "" || ReadersOwn("Activate the virtualenv") != "" {
		t.Error("ReadersOwn")
	}
	if !TabDemo("Press Tab to complete the name", "", "") || TabDemo("Type the name", "", "ls") {
		t.Error("TabDemo")
	}
}

func TestLaterVariant(t *testing.T) {
	for h, want := range map[string]bool{
		"Option 2": true, "Вариант 2": true, "Opción 2: con Docker": true, "Method B": true, "方法2": true, "Variante II": true,
		"Option 1": false, "Вариант 1": false, "Options": false, "Way back": false, "Methods of the class": false, "Variant types": false,
	} {
		if got := LaterVariant(h); got != want {
			t.Errorf("LaterVariant(%q) = %v, want %v", h, got, want)
		}
	}
}
