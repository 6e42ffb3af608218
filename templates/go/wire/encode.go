package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Enc writes v as compact JSON.
type Enc[T any] func(e *Encoder, v T)

// Reencode decodes data as a value (strictly, or tolerantly) and writes it back as compact
// JSON: the conformance hook.
func Reencode[T any](data []byte, tolerant bool, dec Dec[T], enc Enc[T]) ([]byte, error) {
	var v T
	if err := Decode(data, tolerant, dec, &v); err != nil {
		return nil, err
	}
	return Encode(v, enc)
}

// Decode checks the JSON text and decodes it into out.
func Decode[T any](data []byte, tolerant bool, dec Dec[T], out *T) error {
	if err := CheckText(data); err != nil {
		return err
	}
	return dec(&Decoder{Tolerant: tolerant}, bytes.TrimSpace(data), "$", out)
}

// Encoder accumulates compact JSON text and the first error met.
type Encoder struct {
	buf []byte
	err error
}

// Encode writes v with enc.
func Encode[T any](v T, enc Enc[T]) ([]byte, error) {
	e := &Encoder{}
	enc(e, v)
	if e.err != nil {
		return nil, e.err
	}
	return e.buf, nil
}

// Fail records an encoding error (the first one is returned).
func (e *Encoder) Fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("cannot encode: "+format, args...)
	}
}

// Open starts an object.
func (e *Encoder) Open() { e.buf = append(e.buf, '{') }

// Close ends an object.
func (e *Encoder) Close() { e.buf = append(e.buf, '}') }

// Key writes an object member's key (and the comma before it, when it is not the first).
func (e *Encoder) Key(key string) {
	e.sep('{')
	e.buf = appendString(e.buf, key)
	e.buf = append(e.buf, ':')
}

// Text writes JSON text as it is.
func (e *Encoder) Text(text string) { e.buf = append(e.buf, text...) }

func (e *Encoder) sep(open byte) {
	if n := len(e.buf); n > 0 && e.buf[n-1] != open {
		e.buf = append(e.buf, ',')
	}
}

// EncodeString writes a JSON string (invalid UTF-8 as U+FFFD).
func EncodeString(e *Encoder, v string) { e.buf = appendString(e.buf, v) }

func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			buf = append(buf, '\\', byte(r))
		case r == '\n':
			buf = append(buf, '\\', 'n')
		case r == '\r':
			buf = append(buf, '\\', 'r')
		case r == '\t':
			buf = append(buf, '\\', 't')
		case r < 0x20:
			buf = append(buf, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			buf = utf8.AppendRune(buf, r)
		}
	}
	return append(buf, '"')
}

// EncodeNumber writes a number's text (refusing text that is not a JSON number).
func EncodeNumber(e *Encoder, v json.Number) {
	s := string(v)
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) || !json.Valid([]byte(s)) {
		e.Fail("%q is not a JSON number", s)
		s = "0"
	}
	e.buf = append(e.buf, s...)
}

// EncodeBool writes true or false.
func EncodeBool(e *Encoder, v bool) { e.buf = strconv.AppendBool(e.buf, v) }

// EncodeRaw writes JSON text compacted (null when there is none).
func EncodeRaw(e *Encoder, v json.RawMessage) {
	if len(v) == 0 {
		e.buf = append(e.buf, "null"...)
		return
	}
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		e.Fail("invalid JSON text: %v", err)
		e.buf = append(e.buf, "null"...)
		return
	}
	e.buf = append(e.buf, b.Bytes()...)
}

// EncodeObject writes an object of JSON texts (keys sorted).
func EncodeObject(e *Encoder, v map[string]json.RawMessage) { MapEnc(EncodeRaw)(e, v) }

// ArrayEnc writes an array (nil as []: a required array is never dropped).
func ArrayEnc[T any](item Enc[T]) Enc[[]T] {
	return func(e *Encoder, v []T) {
		e.buf = append(e.buf, '[')
		for _, x := range v {
			e.sep('[')
			item(e, x)
		}
		e.buf = append(e.buf, ']')
	}
}

// MapEnc writes an object, keys sorted (nil as {}).
func MapEnc[T any](value Enc[T]) Enc[map[string]T] {
	return func(e *Encoder, v map[string]T) {
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		e.Open()
		for _, k := range keys {
			e.Key(k)
			value(e, v[k])
		}
		e.Close()
	}
}

// Extra writes the members a type does not declare, keys sorted, after its own (a key it
// declares is skipped: it is written from its field).
func Extra(e *Encoder, v map[string]json.RawMessage, declared ...string) {
	keys := make([]string, 0, len(v))
	for k := range v {
		skip := false
		for _, dk := range declared {
			skip = skip || dk == k
		}
		if !skip {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		e.Key(k)
		EncodeRaw(e, v[k])
	}
}

// EncodeNullable writes null for nil.
func EncodeNullable[T any](e *Encoder, v *T, enc Enc[T]) {
	if v == nil {
		e.Text("null")
		return
	}
	enc(e, *v)
}

// EncodePtr writes *v (a nil pointer is an error: there is no value to write).
func EncodePtr[T any](e *Encoder, v *T, enc Enc[T]) {
	if v == nil {
		e.Fail("nil %T", v)
		return
	}
	enc(e, *v)
}
