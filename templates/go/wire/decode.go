package wire

import (
	"bytes"
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Decoder carries what every decoding function of a value needs to know: whether the read is
// tolerant (an unknown union member is kept, not refused).
type Decoder struct {
	Tolerant bool
}

// Dec decodes the JSON text data (one value, checked by CheckText) found at path into out.
type Dec[T any] func(d *Decoder, data []byte, path string, out *T) error

// Member is one member of an object, its value as JSON text.
type Member struct {
	Key   string
	Value []byte
}

// Object reads the members of the object data in order.
func Object(data []byte, path string) ([]Member, error) {
	if len(data) == 0 || data[0] != '{' {
		return nil, Fail(path, "expected an object, got %s", Kind(data))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, Fail(path, "invalid JSON text: %v", err)
	}
	var out []Member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, Fail(path, "invalid JSON text: %v", err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, Fail(path, "invalid JSON text: %v", err)
		}
		out = append(out, Member{key, raw})
	}
	return out, nil
}

// Array reads the items of the array data in order.
func Array(data []byte, path string) ([][]byte, error) {
	if len(data) == 0 || data[0] != '[' {
		return nil, Fail(path, "expected an array, got %s", Kind(data))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, Fail(path, "invalid JSON text: %v", err)
	}
	out := [][]byte{}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, Fail(path, "invalid JSON text: %v", err)
		}
		out = append(out, raw)
	}
	return out, nil
}

// Missing is the error for a required member that is absent, at the member's path (as the
// Python bindings report it).
func Missing(path, key string) error {
	return Fail(Key(path, key), "required member missing")
}

// DecodeString decodes a JSON string.
func DecodeString(_ *Decoder, data []byte, path string, out *string) error {
	if len(data) == 0 || data[0] != '"' {
		return Fail(path, "expected a string, got %s", Kind(data))
	}
	if err := json.Unmarshal(data, out); err != nil {
		return Fail(path, "invalid string: %v", err)
	}
	return nil
}

// DecodeNumber decodes any JSON number, keeping its text (a 19-digit id, `1` and `1.0` stay
// as written).
func DecodeNumber(_ *Decoder, data []byte, path string, out *json.Number) error {
	if len(data) == 0 || (data[0] != '-' && (data[0] < '0' || data[0] > '9')) {
		return Fail(path, "expected a number, got %s", Kind(data))
	}
	*out = json.Number(data)
	return nil
}

// DecodeInteger decodes a JSON number whose value is integral (`3`, `3.0`, `3e2`).
func DecodeInteger(d *Decoder, data []byte, path string, out *json.Number) error {
	if err := DecodeNumber(d, data, path, out); err != nil {
		return err
	}
	if !IsIntegral(string(*out)) {
		return Fail(path, "expected an integer, got %s", *out)
	}
	return nil
}

// IsIntegral says whether the number text's value is an integer (as a float, for a number
// written with a fraction or an exponent, as the Python bindings read it).
func IsIntegral(text string) bool {
	if !strings.ContainsAny(text, ".eE") {
		return true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return false
	}
	r := new(big.Float).SetFloat64(f)
	return r.IsInt()
}

// DecodeBool decodes true or false.
func DecodeBool(_ *Decoder, data []byte, path string, out *bool) error {
	switch string(data) {
	case "true":
		*out = true
	case "false":
		*out = false
	default:
		return Fail(path, "expected a boolean, got %s", Kind(data))
	}
	return nil
}

// DecodeNull accepts only null.
func DecodeNull(_ *Decoder, data []byte, path string, out *json.RawMessage) error {
	if string(data) != "null" {
		return Fail(path, "expected null, got %s", Kind(data))
	}
	*out = json.RawMessage("null")
	return nil
}

// DecodeRaw keeps any JSON value as its text.
func DecodeRaw(_ *Decoder, data []byte, path string, out *json.RawMessage) error {
	if err := checkDepth(data, path); err != nil {
		return err
	}
	*out = append(json.RawMessage(nil), data...)
	return nil
}

// DecodeNever refuses every value (a TypeScript `never`).
func DecodeNever(_ *Decoder, data []byte, path string, _ *json.RawMessage) error {
	return Fail(path, "no value is allowed here, got %s", Kind(data))
}

// DecodeObject keeps any JSON object as its members' texts (a TypeScript `object` or `{}`).
func DecodeObject(d *Decoder, data []byte, path string, out *map[string]json.RawMessage) error {
	return Depth(MapOf(DecodeRaw))(d, data, path, out)
}

// Depth checks the nesting of a value of any JSON from where it starts (an array or a map of
// any JSON: the limit counts from it, not from each of its members), then decodes it.
func Depth[T any](dec Dec[T]) Dec[T] {
	return func(d *Decoder, data []byte, path string, out *T) error {
		if err := checkDepth(data, path); err != nil {
			return err
		}
		return dec(d, data, path, out)
	}
}

func checkDepth(data []byte, path string) error {
	depth, in, esc := 0, false, false
	for _, c := range data {
		switch {
		case in:
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == '"' {
				in = false
			}
		case c == '"':
			in = true
		case c == '[' || c == '{':
			depth++
			if depth > MaxDepth {
				return Fail(path, "nested deeper than %d levels", MaxDepth)
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return nil
}

// ConstString checks that the value is the string want.
func ConstString(d *Decoder, data []byte, path, want string) error {
	var s string
	if err := DecodeString(d, data, path, &s); err != nil {
		return err
	}
	if s != want {
		return Fail(path, "expected %s, got %s", Quote(want), Quote(s))
	}
	return nil
}

// ConstNumber checks that the value is the number want (compared as exact decimals).
func ConstNumber(d *Decoder, data []byte, path, want string) error {
	var n json.Number
	if err := DecodeNumber(d, data, path, &n); err != nil {
		return err
	}
	if Compare(string(n), want) != 0 {
		return Fail(path, "expected %s, got %s", want, n)
	}
	return nil
}

// ConstBool checks that the value is the boolean want.
func ConstBool(d *Decoder, data []byte, path string, want bool) error {
	var b bool
	if err := DecodeBool(d, data, path, &b); err != nil {
		return err
	}
	if b != want {
		return Fail(path, "expected %t, got %t", want, b)
	}
	return nil
}

// Compare compares two number texts as the Python bindings do (an integer exactly, a number
// with a fraction or exponent as its float64).
func Compare(a, b string) int {
	return exact(a).Cmp(exact(b))
}

func exact(text string) *big.Rat {
	if strings.ContainsAny(text, ".eE") {
		f, _ := strconv.ParseFloat(text, 64)
		r := new(big.Rat)
		if r.SetFloat64(f) != nil {
			return r
		}
		return new(big.Rat)
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return new(big.Rat)
	}
	return r
}

// Bounds adds a minimum and a maximum (either "" for none) to a number's decoding.
func Bounds(dec Dec[json.Number], minimum, maximum string) Dec[json.Number] {
	return func(d *Decoder, data []byte, path string, out *json.Number) error {
		if err := dec(d, data, path, out); err != nil {
			return err
		}
		if minimum != "" && Compare(string(*out), minimum) < 0 {
			return Fail(path, "%s is less than the minimum %s", *out, minimum)
		}
		if maximum != "" && Compare(string(*out), maximum) > 0 {
			return Fail(path, "%s is greater than the maximum %s", *out, maximum)
		}
		return nil
	}
}

// Items adds a minimum and a maximum item count (-1 for none) to an array's decoding.
func Items[T any](dec Dec[[]T], minimum, maximum int) Dec[[]T] {
	return func(d *Decoder, data []byte, path string, out *[]T) error {
		if err := dec(d, data, path, out); err != nil {
			return err
		}
		if minimum >= 0 && len(*out) < minimum {
			return Fail(path, "expected at least %d items, got %d", minimum, len(*out))
		}
		if maximum >= 0 && len(*out) > maximum {
			return Fail(path, "expected at most %d items, got %d", maximum, len(*out))
		}
		return nil
	}
}

// Pattern adds a regular expression (Go's RE2 syntax, compiled once, on first use) to a
// string's decoding; the string matches when the expression finds a match anywhere in it.
func Pattern(dec Dec[string], expr string) Dec[string] {
	compiled := sync.OnceValues(func() (*regexp.Regexp, error) { return regexp.Compile(expr) })
	return func(d *Decoder, data []byte, path string, out *string) error {
		if err := dec(d, data, path, out); err != nil {
			return err
		}
		re, err := compiled()
		if err != nil {
			return Fail(path, "pattern %s is not a Go regular expression: %v", Quote(expr), err)
		}
		if !re.MatchString(*out) {
			return Fail(path, "%s does not match the pattern %s", Quote(*out), Quote(expr))
		}
		return nil
	}
}

// ArrayOf decodes an array whose items item decodes.
func ArrayOf[T any](item Dec[T]) Dec[[]T] {
	return func(d *Decoder, data []byte, path string, out *[]T) error {
		items, err := Array(data, path)
		if err != nil {
			return err
		}
		values := make([]T, len(items))
		for i, raw := range items {
			if err := item(d, raw, Index(path, i), &values[i]); err != nil {
				return err
			}
		}
		*out = values
		return nil
	}
}

// MapOf decodes an object whose member values value decodes.
func MapOf[T any](value Dec[T]) Dec[map[string]T] {
	return func(d *Decoder, data []byte, path string, out *map[string]T) error {
		members, err := Object(data, path)
		if err != nil {
			return err
		}
		values := make(map[string]T, len(members))
		for _, m := range members {
			var v T
			if err := value(d, m.Value, Key(path, m.Key), &v); err != nil {
				return err
			}
			values[m.Key] = v
		}
		*out = values
		return nil
	}
}

// Tag reads the string member key of the object data: what a discriminated union dispatches on.
func Tag(data []byte, path, union, key string) (string, error) {
	members, err := Object(data, path)
	if err != nil {
		return "", Fail(path, "%s: expected an object, got %s", union, Kind(data))
	}
	for _, m := range members {
		if m.Key == key {
			var s string
			if err := DecodeString(nil, m.Value, Key(path, key), &s); err != nil {
				return "", Fail(Key(path, key), "%s: the member %s must be a string, got %s", union, Quote(key), Kind(m.Value))
			}
			return s, nil
		}
	}
	return "", Fail(path, "%s: missing the member %s that tells its members apart", union, Quote(key))
}

// Keys counts how many of the object's members are among keys (the shape rule of unions
// without a discriminator).
func Keys(data []byte, keys ...string) int {
	members, err := Object(data, "$")
	if err != nil {
		return 0
	}
	n := 0
	for _, m := range members {
		for _, k := range keys {
			if m.Key == k {
				n++
				break
			}
		}
	}
	return n
}

// Check is a verdict on a value without decoding it anywhere.
type Check func(d *Decoder, data []byte, path string) error

// Is is the check that dec accepts the value.
func Is[T any](dec Dec[T]) Check {
	return func(d *Decoder, data []byte, path string) error {
		var v T
		return dec(d, data, path, &v)
	}
}

// OneOf keeps the value's text when one of the checks accepts it (a union whose members are
// not objects: `string | number`, JSON values).
func OneOf(union string, checks ...Check) Dec[json.RawMessage] {
	return func(d *Decoder, data []byte, path string, out *json.RawMessage) error {
		var reasons []string
		for _, check := range checks {
			err := check(d, data, path)
			if err == nil {
				return DecodeRaw(d, data, path, out)
			}
			reasons = append(reasons, err.Error())
		}
		return Fail(path, "%s: no member matches %s (%s)", union, Kind(data), strings.Join(reasons, "; "))
	}
}

// AllOf keeps the value's text when every check accepts it (an intersection).
func AllOf(checks ...Check) Dec[json.RawMessage] {
	return func(d *Decoder, data []byte, path string, out *json.RawMessage) error {
		for _, check := range checks {
			if err := check(d, data, path); err != nil {
				return err
			}
		}
		return DecodeRaw(d, data, path, out)
	}
}

// NullOr keeps the value's text when it is null or dec accepts it.
func NullOr[T any](dec Dec[T]) Dec[json.RawMessage] {
	return func(d *Decoder, data []byte, path string, out *json.RawMessage) error {
		if string(data) != "null" {
			if err := Is(dec)(d, data, path); err != nil {
				return err
			}
		}
		return DecodeRaw(d, data, path, out)
	}
}

// Ptr decodes an optional member into a new value.
func Ptr[T any](d *Decoder, data []byte, path string, out **T, dec Dec[T]) error {
	*out = new(T)
	return dec(d, data, path, *out)
}

// Nullable decodes a required member that may be null: null is nil.
func Nullable[T any](d *Decoder, data []byte, path string, out **T, dec Dec[T]) error {
	if string(data) == "null" {
		*out = nil
		return nil
	}
	return Ptr(d, data, path, out, dec)
}

// Keep keeps a member a type does not declare, checked by check when there is one (an index
// signature's value type).
func Keep(d *Decoder, data []byte, path, key string, extra *map[string]json.RawMessage, check Check) error {
	if check != nil {
		if err := check(d, data, path); err != nil {
			return err
		}
	}
	var raw json.RawMessage
	if err := DecodeRaw(d, data, path, &raw); err != nil {
		return err
	}
	if *extra == nil {
		*extra = map[string]json.RawMessage{}
	}
	(*extra)[key] = raw
	return nil
}

// ConstStringOf decodes a member whose type is one string.
func ConstStringOf(want string) Dec[string] {
	return func(d *Decoder, data []byte, path string, out *string) error {
		*out = want
		return ConstString(d, data, path, want)
	}
}

// ConstNumberOf decodes a member whose type is one number.
func ConstNumberOf(want string) Dec[json.Number] {
	return func(d *Decoder, data []byte, path string, out *json.Number) error {
		*out = json.Number(data)
		return ConstNumber(d, data, path, want)
	}
}

// ConstBoolOf decodes a member whose type is one boolean.
func ConstBoolOf(want bool) Dec[bool] {
	return func(d *Decoder, data []byte, path string, out *bool) error {
		*out = want
		return ConstBool(d, data, path, want)
	}
}

// Enum decodes a string that must be one of values (any string when the read is tolerant:
// a newer version's value is kept).
func Enum(union string, values ...string) Dec[string] {
	return func(d *Decoder, data []byte, path string, out *string) error {
		if err := DecodeString(d, data, path, out); err != nil {
			return err
		}
		for _, v := range values {
			if v == *out {
				return nil
			}
		}
		if d.Tolerant {
			return nil
		}
		quoted := make([]string, len(values))
		for i, v := range values {
			quoted[i] = Quote(v)
		}
		return Fail(path, "%s: %s is not one of %s", union, Quote(*out), strings.Join(quoted, ", "))
	}
}

// Case is one member of a discriminated union: its tag value and how it decodes.
type Case[U any] struct {
	Tag string
	Dec Dec[U]
}

// As turns a member type's decoder into the union's.
func As[U, T any](dec Dec[T]) Dec[U] {
	return func(d *Decoder, data []byte, path string, out *U) error {
		var v T
		if err := dec(d, data, path, &v); err != nil {
			return err
		}
		u, ok := any(v).(U)
		if !ok {
			return Fail(path, "%T is not a member of the union", v)
		}
		*out = u
		return nil
	}
}

// On is a Case.
func On[U, T any](tag string, dec Dec[T]) Case[U] { return Case[U]{tag, As[U](dec)} }

// Tagged decodes a discriminated union: the member whose tag the string member key names; an
// unknown tag is refused, or kept by unknown when the read is tolerant.
func Tagged[U any](d *Decoder, data []byte, path string, out *U, union, key string, unknown func(json.RawMessage) U, cases ...Case[U]) error {
	tag, err := Tag(data, path, union, key)
	if err != nil {
		return err
	}
	for _, c := range cases {
		if c.Tag == tag {
			return c.Dec(d, data, path, out)
		}
	}
	if d.Tolerant {
		*out = unknown(append(json.RawMessage(nil), data...))
		return nil
	}
	tags := make([]string, len(cases))
	for i, c := range cases {
		tags[i] = Quote(c.Tag)
	}
	return Fail(path, "%s: unknown %s %s (expected one of %s)", union, Quote(key), Quote(tag), strings.Join(tags, ", "))
}

// Shape is one member of a union without a discriminator: the keys it declares and how it
// decodes.
type Shape[U any] struct {
	Name string
	Keys []string
	Dec  Dec[U]
}

// Shaped is a Shape.
func Shaped[U, T any](name string, dec Dec[T], keys ...string) Shape[U] {
	return Shape[U]{name, keys, As[U](dec)}
}

// ByShape decodes a union of objects without a discriminator: of the members that accept the
// value, the one that declares the most of its keys; on a tie, the earlier one.
func ByShape[U any](d *Decoder, data []byte, path string, out *U, union string, shapes ...Shape[U]) error {
	if len(data) == 0 || data[0] != '{' {
		return Fail(path, "%s: expected an object, got %s", union, Kind(data))
	}
	best, most := -1, -1
	var reasons []string
	var found U
	for i, s := range shapes {
		var v U
		if err := s.Dec(d, data, path, &v); err != nil {
			reasons = append(reasons, s.Name+": "+err.Error())
			continue
		}
		if n := Keys(data, s.Keys...); n > most {
			best, most, found = i, n, v
		}
	}
	if best < 0 {
		return Fail(path, "%s: no member matches (%s)", union, strings.Join(reasons, "; "))
	}
	*out = found
	return nil
}

// IsArray says whether the value is an array.
func IsArray(data []byte) bool { return len(data) > 0 && data[0] == '[' }
