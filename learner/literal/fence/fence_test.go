package fence

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

// A program's block whose closing fence comes only after the page's
// explanation and the session that builds it is closed too late: the
// finding is at its opening line, and the reading keeps the program alone.
func TestProgramClosedTooLate(t *testing.T) {
	text := "# 第一个程序\n\n```c\n#include <stdio.h>\nint main(void)\n{\n    /* 打印一行问候语 */\n    printf(\"你好，世界\\n\"); // 输出问候语到屏幕上\n    return 0;\n}\n\n下面我们逐行说明这个程序的意思：\n    第一行告诉编译器先读入标准输入输出的头文件。\n    然后主函数从这里开始执行程序。\n\n把它保存为 greet.c 再编译运行：\n\n$ cc greet.c -o greet\n$ ./greet\n你好，世界\n```\n"
	tut := spectest.Tutorial(t, text)
	f, ok := Find(tut)
	if !ok || f.Kind != Late || f.Block.Line != 3 || f.ProgramEnd != 10 || f.Session != "cc greet.c -o greet" {
		t.Fatalf("Find = %+v, %v; want a late close of the block at line 3, program ending at line 10, session cc greet.c -o greet", f, ok)
	}
	if p := f.Problem(); !strings.Contains(p, "line 3") || !strings.Contains(p, "ends (line 10)") {
		t.Errorf("problem %q", p)
	}
	cut := f.Follow(tut)
	for _, b := range cut.Blocks {
		if b.Line == 3 && (len(b.Code) != 7 || strings.Contains(b.Text, "编译运行") || !strings.HasSuffix(b.Text, "}\n")) {
			t.Errorf("the program as followed: %d lines\n%s", len(b.Code), b.Text)
		}
	}
	for _, b := range tut.Blocks {
		if b.Line == 3 && len(b.Code) < 10 {
			t.Errorf("Follow changed the page's own block: %d lines", len(b.Code))
		}
	}
}

// Clean pages: comments and strings in the page's language, block comments
// and docstrings, a session block with prompts, a program followed by its
// own closed session block, and prose without a session.
func TestCleanBlocksAreNotClosedLate(t *testing.T) {
	for name, text := range map[string]string{
		"comments and strings":     "```c\n#include <stdio.h>\nint main(void) {\n    // 这里打印一行问候语到屏幕上\n    printf(\"这里打印一行问候语到屏幕上\\n\");\n    return 0; /* 程序正常结束返回零 */\n}\n```\n\n```console\n$ cc a.c\n```\n",
		"block comment":            "```c\n/*\n 这是一个很长的多行注释的内容\n 它解释了下面的程序做什么事情\n 以及为什么要这样写\n $ cc a.c\n*/\nint main(void) { return 0; }\n```\n",
		"docstring":                "```python\ndef greet():\n    \"\"\"\n    Say hello to the person who runs this little program today.\n    It prints one line and returns nothing at all to its caller.\n    Run it from the folder where you saved it, like this:\n    $ python3 greet.py\n    \"\"\"\n    print('hi')\n```\n",
		"session block":            "```bash\n$ cc greet.c -o greet\n$ ./greet\nhello there my friend this is the program output\n```\n",
		"program then its session": "```c\nint main(void) {\n    return 0;\n}\n```\n\nThen build it and run it like this in your terminal:\n\n```console\n$ cc a.c\n```\n",
	} {
		if f, ok := Find(spectest.Tutorial(t, text)); ok {
			t.Errorf("%s: Find = %+v, want no fault", name, f)
		}
	}
}

// A line of code is not prose for the page's words in its comments or
// strings; a sentence is, in a script without spaces or in words.
func TestIsProse(t *testing.T) {
	for line, want := range map[string]bool{
		`    return 0; // 返回零表示程序正常结束`:                              false,
		`    x = compute(); /* 计算结果并保存起来 */`:                        false,
		`    printf("欢迎来到这个小小的程序\n");`:                              false,
		"    result = value # 这里保存计算出来的结果":                          false,
		"// 这是一行单独的注释说明":                                            false,
		"    第一行告诉编译器先读入头文件。":                                       true,
		"Save the file and then compile it with the command below.": true,
		"int main(void) {": false,
		"":                 false,
		"$ cc greet.c":     false,
	} {
		if got := isProse(line); got != want {
			t.Errorf("isProse(%q) = %v, want %v", line, got, want)
		}
	}
}
