package mentor

import (
	"reflect"
	"testing"
)

func TestRegistryInstall(t *testing.T) {
	for cmd, want := range map[string][][]string{
		"pip install pytest":                      {{"python3-pytest"}},
		"pip3 install Flask==3.0 requests[socks]": {{"python3-flask"}, {"python3-requests"}},
		"python3 -m pip install -U ruamel.yaml":   {{"python3-ruamel-yaml"}},
		"sudo npm install -g mocha":               {{"node-mocha", "mocha"}},
		"npm i ejs@3 express":                     {{"node-ejs", "ejs"}, {"node-express", "express"}},
		"npx express-generator --view=ejs app":    {{"node-express-generator", "express-generator"}},
		"gem install sinatra":                     {{"ruby-sinatra", "sinatra"}},
		"pip install -r requirements.txt":         nil, // a file: nothing to stand in for
		"pip install -e .":                        nil,
		"npm install":                             nil, // the project's own dependencies
		"pip install https://example.org/x.whl":   nil,
		"apt-get install python3-pytest":          nil,
	} {
		if got := registryInstall(cmd); !reflect.DeepEqual(got, want) {
			t.Errorf("registryInstall(%q) = %q, want %q", cmd, got, want)
		}
	}
}
