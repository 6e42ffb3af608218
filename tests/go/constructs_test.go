// The constructs of tests/fixtures/go/constructs.ts (none in the official schemas): copied
// into the generated package's directory by tests/test_go_target.py.
package vconstructs1

import (
	"strings"
	"testing"
)

func TestConstructs(t *testing.T) {
	base := `"pair":["a"],"ttl":null`
	cases := []struct {
		members string
		want    string // "" when valid, else the start of the error
	}{
		{`"share":100`, ""},
		{`"share":100.5`, "$.share: "},
		{`"share":-1`, "$.share: "},
		{`"slug":"abc"`, ""},
		{`"slug":"ABC"`, "$.slug: "},
		{`"prefixed":"xy"`, ""},
		{`"prefixed":"yx"`, "$.prefixed: "},
		{`"maybe":null`, ""},
		{`"maybe":"s"`, ""},
		{`"maybe":5`, "$.maybe: "},
		{`"mixed":[true]`, ""},
		{`"mixed":true`, "$.mixed: "},
		{`"level":"mid"`, "$.level: "},
		{`"count":2.0`, ""},
		{`"count":1.5`, "$.count: "},
		{`"exact":1`, ""},
		{`"exact":2`, "$.exact: "},
		{`"both":{"a":"x","b":1}`, ""},
		{`"both":{"a":"x"}`, "$.both.b: "},
		{`"x-dashed":1`, `$["x-dashed"]: `},
	}
	for _, c := range cases {
		in := "{" + base + "," + c.members + "}"
		out, err := Reencode("Shapes", []byte(in))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", in, err)
		case c.want == "" && !sameJSON([]byte(in), out):
			t.Errorf("%s: written back as %s", in, out)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q...", in, err, c.want)
		}
	}
	for _, pair := range []string{`[]`, `["a","b","c"]`} {
		if _, err := Reencode("Shapes", []byte(`{"ttl":1,"pair":`+pair+`}`)); err == nil || !strings.HasPrefix(err.Error(), "$.pair: ") {
			t.Errorf("pair %s: %v", pair, err)
		}
	}
	if _, err := Reencode("Shapes", []byte(`{"pair":["a"]}`)); err == nil || !strings.HasPrefix(err.Error(), "$.ttl: ") {
		t.Errorf("a required nullable member may not be absent: %v", err)
	}
	if out, err := ReencodeTolerant("Shapes", []byte(`{"pair":["a"],"ttl":null,"level":"mid"}`)); err != nil || !strings.Contains(string(out), `"level":"mid"`) {
		t.Errorf("tolerant string type: %s (%v)", out, err)
	}
	if _, err := Reencode("Either", []byte(`{"kind":"b","b":1}`)); err != nil {
		t.Error(err)
	}
	if _, err := Reencode("Either", []byte(`{"kind":"c"}`)); err == nil || !strings.HasPrefix(err.Error(), "$: Either: unknown \"kind\"") {
		t.Errorf("unknown kind: %v", err)
	}
}
