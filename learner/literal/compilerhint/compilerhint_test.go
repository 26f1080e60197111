package compilerhint

import "testing"

func TestMissingInclude(t *testing.T) {
	for out, want := range map[string]string{
		"main.cc:3:14: error: ‘cout’ is not a member of ‘std’\nmain.cc:1:1: note: ‘std::cout’ is defined in header ‘<iostream>’; did you forget to ‘#include <iostream>’?\n": "<iostream>",
		"a.cpp:2:5: note: 'std::vector' is defined in header '<vector>'; did you forget to '#include <vector>'?":                                                             "<vector>",
		"x.c:3:5: note: include '<stdlib.h>' or provide a declaration; this is probably fixable by adding '#include <stdlib.h>'":                                             "<stdlib.h>",
		"main.cc:3:5: error: expected ';' before 'return'": "",
		"": "",
	} {
		got, said, ok := MissingInclude(out)
		if got != want || ok != (want != "") || ok && said == "" {
			t.Errorf("MissingInclude(%q) = %q, %q, %v; want %q", out, got, said, ok, want)
		}
	}
}
