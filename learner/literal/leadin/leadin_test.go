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
	} {
		if got := IntroducesOutput(text); got != want {
			t.Errorf("IntroducesOutput(%q) = %v, want %v", text, got, want)
		}
	}
}
