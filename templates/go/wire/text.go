// Package wire is the JSON machinery the version packages of this module share: JSON text
// checked once (UTF-8, syntax, repeated keys, number range, nesting), objects and arrays read
// member by member, values decoded into the generated types with a JSON path for every error,
// and compact JSON written back.
package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxDepth is how deeply arrays and objects may nest in a value of any JSON (an `unknown`
// member, an undeclared member), counted from where that value starts; the Python bindings
// have the same limit.
const MaxDepth = 256

// MaxTextDepth is how deeply the whole JSON text may nest (about what Python's parser reads).
const MaxTextDepth = 1000

// MaxIntegerDigits is the longest integer a number may be written with (Python's default
// int_max_str_digits): a longer one is not interoperable JSON.
const MaxIntegerDigits = 4300

// Error is a decoding error: where (a JSON path such as `$.params.name` or `$["x-y"]`) and why.
type Error struct {
	Path   string
	Reason string
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }

// Fail is an *Error at path.
func Fail(path, format string, args ...any) error {
	return &Error{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// Key is the path of the member key of the value at path: `$.a.b`, or `$.a["x-y"]` when the
// key is not an identifier.
func Key(path, key string) string {
	if isIdentifier(key) {
		return path + "." + key
	}
	return path + "[" + Quote(key) + "]"
}

// Index is the path of item i of the array at path.
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || unicode.IsLetter(r) || (i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))) {
			continue
		}
		return false
	}
	return true
}

// Quote writes s as a JSON string with every character outside ASCII escaped (as Python's
// json.dumps does), for paths and messages.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || (r >= 0x7f && r < 0x10000):
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x10000:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Kind names the JSON kind of a value's text, for messages.
func Kind(data []byte) string {
	if len(data) == 0 {
		return "nothing"
	}
	switch data[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// CheckText checks JSON text as the Python bindings do before decoding: UTF-8, one value and
// nothing after it, no key given twice in an object, numbers a float can hold (integers of at
// most MaxIntegerDigits digits), nesting of at most MaxTextDepth levels.
func CheckText(data []byte) error {
	if !utf8.Valid(data) {
		n := 0
		for n < len(data) {
			r, size := utf8.DecodeRune(data[n:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			n += size
		}
		return Fail("$", "invalid UTF-8 at byte %d", n)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return Fail("$", "invalid JSON text: no value")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object bool
		path   string
		keys   map[string]bool
		n      int
		key    string
		atKey  bool // an object's next token is a key
	}
	var stack []*frame
	path := func() string {
		if len(stack) == 0 {
			return "$"
		}
		f := stack[len(stack)-1]
		if f.object {
			return Key(f.path, f.key)
		}
		return Index(f.path, f.n)
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF && len(stack) == 0 {
			return nil
		}
		if err != nil { // located where the parser was: the member or item being read
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return Fail(path(), "invalid JSON text: %v", err)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if key, ok := tok.(string); ok && top != nil && top.atKey {
			if top.keys[key] {
				return Fail(top.path, "key %s given twice", Quote(key))
			}
			top.keys[key] = true
			top.key, top.atKey = key, false
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				if len(stack) >= MaxTextDepth {
					return Fail(path(), "nested deeper than %d levels", MaxTextDepth)
				}
				open := t == '{'
				stack = append(stack, &frame{object: open, path: path(), keys: map[string]bool{}, atKey: open})
				continue
			}
			stack = stack[:len(stack)-1]
		case json.Number:
			if err := CheckNumber(string(t)); err != nil {
				return Fail(path(), "%s", err.Error())
			}
		}
		if len(stack) > 0 {
			f := stack[len(stack)-1]
			if f.object {
				f.atKey = true
			} else {
				f.n++
			}
			continue
		}
		// the value is complete: only blanks may follow it
		if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
			return Fail("$", "text after the JSON value")
		}
		return nil
	}
}

// CheckNumber: a number with a fraction or an exponent must fit a float64, an integer must
// have at most MaxIntegerDigits digits.
func CheckNumber(text string) error {
	if strings.ContainsAny(text, ".eE") {
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return fmt.Errorf("number %s is too large for a float", text)
		}
		return nil
	}
	if len(strings.TrimPrefix(text, "-")) > MaxIntegerDigits {
		return fmt.Errorf("integer of more than %d digits", MaxIntegerDigits)
	}
	return nil
}
