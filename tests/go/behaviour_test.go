// Behaviour of the generated 2026-07-28 package that the examples do not show: copied into
// the package's directory by tests/test_go_target.py.
package v20260728

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// reencodeOK: the text written back is want (or, for "~" + want, canonically equal to it).
func reencodeOK(t *testing.T, typeName, in, want string) {
	t.Helper()
	out, err := Reencode(typeName, []byte(in))
	if err != nil {
		t.Fatalf("%s %s: %v", typeName, in, err)
	}
	if string(out) != want && !(strings.HasPrefix(want, "~") && sameJSON([]byte(want[1:]), out)) {
		t.Fatalf("%s %s: got %s, want %s", typeName, in, out, want)
	}
}

func TestZeroSurvives(t *testing.T) {
	reencodeOK(t, "Annotations", `{"priority": 0}`, `{"priority":0}`)
	var a Annotations
	if err := json.Unmarshal([]byte(`{"priority":0}`), &a); err != nil || a.Priority == nil || *a.Priority != "0" {
		t.Fatalf("priority 0 decoded as %v (%v)", a.Priority, err)
	}
	in := `{"messages":[],"maxTokens":10,"temperature":0}`
	reencodeOK(t, "CreateMessageRequestParams", in, "~"+in)
	var p CreateMessageRequestParams
	if err := json.Unmarshal([]byte(in), &p); err != nil || p.Temperature == nil || *p.Temperature != "0" {
		t.Fatalf("temperature 0 decoded as %v (%v)", p.Temperature, err)
	}
	out, err := json.Marshal(p)
	if err != nil || !strings.Contains(string(out), `"temperature":0`) {
		t.Fatalf("temperature 0 encoded as %s (%v)", out, err)
	}
}

func TestAbsentAndEmpty(t *testing.T) {
	reencodeOK(t, "Annotations", `{"audience":[]}`, `{"audience":[]}`)
	reencodeOK(t, "Annotations", `{}`, `{}`)
	var a Annotations
	if err := json.Unmarshal([]byte(`{"audience":[]}`), &a); err != nil || a.Audience == nil {
		t.Fatalf("an empty audience decoded as absent (%v)", err)
	}
	// A required member is written even when it is its zero value.
	out, err := json.Marshal(TextContent{})
	if err != nil || string(out) != `{"type":"text","text":""}` {
		t.Fatalf("TextContent{} encoded as %s (%v)", out, err)
	}
}

func TestNumbersExact(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1234567890123456789,"method":"x/y","params":{"a":1,"b":1.0,"c":1e2}}`
	reencodeOK(t, "JSONRPCRequest", in, "~"+in)
	reencodeOK(t, "Annotations", `{"priority":1}`, `{"priority":1}`)
	if _, err := Reencode("Annotations", []byte(`{"priority":1.5}`)); err == nil {
		t.Fatal("priority 1.5 (maximum 1) accepted")
	}
}

func TestUnknownMembersKept(t *testing.T) {
	in := `{"type":"text","text":"hi","x-new":{"deep":[1,2]}}`
	reencodeOK(t, "TextContent", in, in)
}

func TestUnknownUnionMember(t *testing.T) {
	in := `{"type":"hologram","frames":3}`
	_, err := Reencode("ContentBlock", []byte(in))
	if err == nil || !strings.HasPrefix(err.Error(), "$: ContentBlock: unknown \"type\" \"hologram\"") {
		t.Fatalf("strict decode: %v", err)
	}
	out, err := ReencodeTolerant("ContentBlock", []byte(in))
	if err != nil || string(out) != in {
		t.Fatalf("tolerant decode: %s (%v)", out, err)
	}
	res := `{"resultType":"complete","content":[{"type":"text","text":"a"},{"type":"hologram"}]}`
	if _, err := Reencode("CallToolResult", []byte(res)); err == nil || !strings.HasPrefix(err.Error(), "$.content[1]: ") {
		t.Fatalf("strict decode of a result: %v", err)
	}
	var r CallToolResult
	if err := r.UnmarshalJSON([]byte(res)); err == nil {
		t.Fatal("UnmarshalJSON is not strict")
	}
	out, err = ReencodeTolerant("CallToolResult", []byte(res))
	if err != nil || string(out) != res {
		t.Fatalf("tolerant decode of a result: %s (%v)", out, err)
	}
}

func TestErrorPaths(t *testing.T) {
	cases := map[string]string{
		`{"action":"accept","content":{"x-y":{}}}`: `$.content["x-y"]: `,
		`{"action":"accept","content":{"ok":{}}}`:  `$.content.ok: `,
		`{"action":"maybe"}`:                       `$.action: `,
		`{"content":{}}`:                           `$.action: required member missing`,
		`{"action":"accept","action":"decline"}`:   `$: key "action" given twice`,
	}
	for in, prefix := range cases {
		_, err := Reencode("ElicitResult", []byte(in))
		var werr interface{ Error() string }
		if err == nil || !errors.As(err, &werr) || !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("%s: got %v, want %q...", in, err, prefix)
		}
	}
}

func TestRegistry(t *testing.T) {
	request := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo"}}`
	msg, err := DecodeMessage("client_to_server", []byte(request), false)
	if err != nil {
		t.Fatal(err)
	}
	call, ok := msg.Body.(CallToolRequest)
	if !ok || msg.Kind != "request" || call.Params.Name != "echo" || call.MethodName() != MethodToolsCall {
		t.Fatalf("decoded %+v", msg)
	}
	info, _ := LookupMethod(msg.Method)
	if info.ResultType != "CallToolResult" {
		t.Fatalf("tools/call is answered by %q", info.ResultType)
	}
	response, err := EncodeResponse(msg.ID, CallToolResult{ResultType: "complete", Content: []ContentBlock{TextContent{Text: "echo"}}})
	if err != nil || string(response) != `{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","content":[{"type":"text","text":"echo"}]}}` {
		t.Fatalf("response %s (%v)", response, err)
	}
	result, err := DecodeResult(MethodToolsCall, []byte(`{"resultType":"complete","content":[]}`), false)
	if _, ok := result.(CallToolResult); !ok || err != nil {
		t.Fatalf("result %#v (%v)", result, err)
	}
	if _, err := DecodeMessage("server_to_client", []byte(request), false); err == nil {
		t.Fatal("tools/call accepted from the server")
	}
	if _, err := ReencodeMessage("client_to_server", []byte(`{"jsonrpc":"2.0","id":1,"method":"no/such"}`)); err == nil || !strings.HasPrefix(err.Error(), "$.method: unknown method") {
		t.Fatalf("unknown method: %v", err)
	}
	bad := strings.Replace(request, `"name":"echo"`, `"name":5`, 1)
	if _, err := ReencodeMessage("client_to_server", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "$.params.name: ") {
		t.Fatalf("params not checked: %v", err)
	}
	out, err := ReencodeMessage("client_to_server", []byte(request))
	if err != nil || !sameJSON([]byte(request), out) {
		t.Fatalf("message round trip: %s (%v)", out, err)
	}
}
