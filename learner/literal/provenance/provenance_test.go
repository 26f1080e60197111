package provenance

import "testing"

func TestMachine(t *testing.T) {
	machine := []string{"pwd", "whoami", "date +%F", "ps aux | grep sleep", "python3 --version", "node -v",
		"sudo systemctl status cron", "ls -l /etc/cron.daily", "cat /etc/crontab", "echo $SHELL", "ls ~",
		"crontab -l", "at now + 1 minute", "uname -a", "which python3", "tail -n 5 /etc/passwd | cut -d: -f1"}
	for _, c := range machine {
		if Machine(c, 1) == nil {
			t.Errorf("%q reports on the machine", c)
		}
	}
	page := []string{"python3 hello.py", "cat notes.txt", "ls project", "./build.sh --version extra", "echo hello",
		"stat notes.txt", "go run .", "ls", "cat /etc/../home/me/app.conf extra.txt", "grep error app.log", "echo $GREETING world", "head -n 3 notes.txt"}
	for _, c := range page {
		if ev := Machine(c, 1); ev != nil {
			t.Errorf("%q prints the page's output, but reads as the machine's: %v", c, ev)
		}
	}
	if ev := Machine("pwd", 7); ev == nil || ev.Rule != "output.machine" || ev.Line != 7 || ev.Phrase != "pwd" {
		t.Errorf("evidence = %+v", ev)
	}
}

func TestForeignListing(t *testing.T) {
	page := "# Find\n\nMake the notes:\n\n```\nmkdir notes && touch notes/todo.md\n```\n\n```\n$ fd todo\nnotes/todo.md\n```\n\n```\n$ fd netfl\nSoftware/old/netflix-ratings.py\n```\n"
	// Lines 10-12 show the page's own file; 15-17 a file of the author's.
	if ev := ForeignListing("fd todo", []string{"notes/todo.md"}, page, 10, 12); ev != nil {
		t.Errorf("a listing of the page's own file reads as the author's: %v", ev)
	}
	if ev := ForeignListing("fd netfl", []string{"Software/old/netflix-ratings.py"}, page, 15, 17); ev == nil || ev.Rule != "output.foreign-listing" {
		t.Errorf("a listing of files the page never makes is the author's: %v", ev)
	}
	if ev := ForeignListing("cat notes/todo.md", []string{"Software/old/netflix-ratings.py"}, page, 15, 17); ev != nil {
		t.Errorf("cat prints content, not a listing: %v", ev)
	}
	if ev := ForeignListing("ls -l", []string{"total 0", "-rw-r--r-- 1 me me 0 May 1 10:00 ab"}, page, 15, 17); ev != nil {
		t.Errorf("a listing naming nothing recognisable is no evidence: %v", ev)
	}
}
