package leadin

import "testing"

func TestOptional(t *testing.T) {
	for s, want := range map[string][2]bool{ // {optional, if present}
		"Optionally, build the docs too:":              {true, false},
		"If you want a PDF, also install LaTeX:":       {true, false},
		"You may need to open the port:":               {true, true},
		"If you see a lock file, remove it:":           {true, true},
		"Puede que necesites abrir el puerto:":         {true, true},
		"Si quieres, instala también el depurador:":    {true, false},
		"Si vous voulez, ajoutez la couleur :":         {true, false},
		"Falls nötig, öffne den Port:":                 {true, true},
		"必要に応じてファイアウォールを開きます。":                         {true, true},
		"如果需要，可以安装调试器：":                                {true, false},
		"При необходимости откройте порт:":             {true, true},
		"Если нужно, установите отладчик:":             {true, false},
		"Install the compiler:":                        {false, false},
		"If the build fails, read the log first.":      {false, false},
		"Instala el compilador y compila el programa:": {false, false},
	} {
		if got := Optional(s); got != want[0] {
			t.Errorf("Optional(%q) = %v, want %v", s, got, want[0])
		}
		if got := Optional(s) && IfPresent(s); got != want[1] {
			t.Errorf("IfPresent(%q) = %v, want %v", s, got, want[1])
		}
	}
	for c, want := range map[string]bool{
		"may not be installed; that is fine": true,
		"puede que no esté instalado":        true,
		"opcional":                           true,
		"si está instalado":                  true,
		"если установлен":                    true,
		"print the version":                  false,
		"install it first":                   false,
	} {
		if got := OptionalComment(c); got != want {
			t.Errorf("OptionalComment(%q) = %v, want %v", c, got, want)
		}
	}
}
