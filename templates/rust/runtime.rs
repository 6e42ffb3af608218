//! What every version module shares: JSON paths, the decoding error, the decoding context
//! (strict or tolerant) and the helpers the generated decoders and encoders call.
//!
//! Decoding goes through [`Json`], a JSON tree whose objects are vectors of members: the text
//! is read once, then each generated `FromJson` implementation takes the parts it needs by
//! value (nothing is copied), checks what serde cannot (constants, bounds, the union rules) and
//! keeps every member its type does not declare (as [`serde_json::Value`]), so decoding and
//! encoding again gives the same JSON.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde::Deserializer;
pub use serde_json::{Map, Number, Value};

/// A value that failed to decode: where (a JSON path such as `$.params.name`) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    path: String,
    reason: String,
}

impl Error {
    /// An error at `path` (rendered now: errors are rare, paths are cheap until then).
    pub fn new(path: &Path<'_>, reason: impl Into<String>) -> Self {
        Error {
            path: path.render(),
            reason: reason.into(),
        }
    }

    /// The JSON path of the offending value, spelled `$.a.b[0]["x-y"]`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Why the value was refused.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

impl std::error::Error for Error {}

/// Where a value stands in the document being decoded, as a chain on the stack.
#[derive(Debug, Clone, Copy)]
pub enum Path<'a> {
    /// The document itself (`$`).
    Root,
    /// A member of an object.
    Key(&'a Path<'a>, &'a str),
    /// An item of an array.
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    /// The member `key` of the object at this path.
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    /// The item `index` of the array at this path.
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }

    /// `$`, then `.key` for a key that is an identifier, `["key"]` (JSON) for any other key
    /// and `[n]` for an item: the Python target's spelling.
    pub fn render(&self) -> String {
        let mut parts = Vec::new();
        let mut at = self;
        loop {
            match at {
                Path::Root => break,
                Path::Key(parent, key) => {
                    parts.push(key_segment(key));
                    at = parent;
                }
                Path::Index(parent, index) => {
                    parts.push(format!("[{index}]"));
                    at = parent;
                }
            }
        }
        parts.reverse();
        format!("${}", parts.concat())
    }
}

fn key_segment(key: &str) -> String {
    let mut chars = key.chars();
    let first = chars.next();
    let starts = first.is_some_and(|c| c == '_' || c.is_alphabetic());
    if starts && chars.all(|c| c == '_' || c.is_alphanumeric()) {
        format!(".{key}")
    } else {
        let mut quoted = String::new();
        for c in key.chars() {
            match c {
                '"' => quoted.push_str("\\\""),
                '\\' => quoted.push_str("\\\\"),
                '\n' => quoted.push_str("\\n"),
                '\r' => quoted.push_str("\\r"),
                '\t' => quoted.push_str("\\t"),
                c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        quoted.push_str(&format!("\\u{unit:04x}"));
                    }
                }
                c => quoted.push(c),
            }
        }
        format!("[\"{quoted}\"]")
    }
}

/// How to decode. Strict (the default) refuses what the version does not declare; tolerant
/// keeps a union member or a string the version does not know as an `Unknown` value, written
/// back as it came.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cx {
    /// Keep unknown union members and enum strings instead of refusing them.
    pub tolerant: bool,
}

/// A JSON value as the decoders read it: like [`Value`], but an object is the vector of its
/// members in the order they came (taking members out of it is cheaper than out of a map).
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// a number
    Number(Number),
    /// a string
    String(String),
    /// an array
    Array(Vec<Json>),
    /// an object (no key twice)
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The same value as a [`Value`].
    pub fn into_value(self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(b),
            Json::Number(n) => Value::Number(n),
            Json::String(s) => Value::String(s),
            Json::Array(items) => Value::Array(items.into_iter().map(Json::into_value).collect()),
            Json::Object(members) => Value::Object(into_map(members)),
        }
    }
}

fn into_map(members: Vec<(String, Json)>) -> Map<String, Value> {
    members
        .into_iter()
        .map(|(k, v)| (k, v.into_value()))
        .collect()
}

impl From<Value> for Json {
    fn from(value: Value) -> Self {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => Json::Number(n),
            Value::String(s) => Json::String(s),
            Value::Array(items) => Json::Array(items.into_iter().map(Json::from).collect()),
            Value::Object(map) => {
                Json::Object(map.into_iter().map(|(k, v)| (k, v.into())).collect())
            }
        }
    }
}

/// A type decoded from a JSON value, with the checks serde cannot make.
pub trait FromJson: Sized {
    /// Decode `value`, which stands at `at` in the document.
    fn from_json(value: Json, cx: Cx, at: &Path<'_>) -> Result<Self, Error>;
}

/// Decode a value as `T` (a short name for the generated code).
pub fn d<T: FromJson>(value: Json, cx: Cx, at: &Path<'_>) -> Result<T, Error> {
    T::from_json(value, cx, at)
}

/// Decode a value as `T` and wrap it (`Self::Variant`): what a union's arm does.
pub fn dm<T: FromJson, U>(
    value: Json,
    cx: Cx,
    at: &Path<'_>,
    wrap: fn(T) -> U,
) -> Result<U, Error> {
    T::from_json(value, cx, at).map(wrap)
}

/// Decode a JSON text as `T` and encode it again as compact JSON.
pub fn reencode<T: FromJson + Serialize>(text: &str, cx: Cx) -> Result<String, Error> {
    from_str::<T>(text, cx).map(|value| to_string(&value))
}

/// An error about the whole document.
pub fn at_root(reason: impl Into<String>) -> Error {
    Error::new(&Path::Root, reason)
}

/// Decode a JSON text as `T` (read by [`parse`]'s rules).
pub fn from_str<T: FromJson>(text: &str, cx: Cx) -> Result<T, Error> {
    T::from_json(read(text)?, cx, &Path::Root)
}

/// How deep values may nest in a JSON text (the project's JSON-text rules).
pub const MAX_DEPTH: usize = 256;

/// Read a JSON text by the project's JSON-text rules: values nested deeper than
/// [`MAX_DEPTH`] levels, a key given twice in one object, a number too large for a double and
/// text after the value are errors, located by a JSON path. (A lone surrogate escape cannot be
/// held by a Rust `String`: it is refused; an integer past 64 bits is kept exact only with the
/// crate's `arbitrary_precision` feature.)
pub fn parse(text: &str) -> Result<Value, Error> {
    read(text).map(Json::into_value)
}

/// [`parse`], into the decoders' tree.
pub fn read(text: &str) -> Result<Json, Error> {
    let trail = RefCell::new(Vec::new());
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit(); // `Node` stops at MAX_DEPTH itself
    let seed = Node {
        depth: 0,
        trail: &trail,
    };
    let read = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    read.map_err(|e| {
        let mut at = trail.into_inner();
        at.reverse();
        let segments: String = at.iter().map(Segment::render).collect();
        Error {
            path: format!("${segments}"),
            reason: format!("not JSON: {e}"),
        }
    })
}

enum Segment {
    Key(String),
    Index(usize),
}

impl Segment {
    fn render(&self) -> String {
        match self {
            Segment::Key(k) => key_segment(k),
            Segment::Index(i) => format!("[{i}]"),
        }
    }
}

/// One value of the text being read; `trail` collects the path of an error as it unwinds.
struct Node<'a> {
    depth: usize,
    trail: &'a RefCell<Vec<Segment>>,
}

impl Node<'_> {
    fn enter<E: de::Error>(&self) -> Result<usize, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        Ok(self.depth + 1)
    }
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

#[cfg(feature = "arbitrary_precision")]
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

#[cfg(feature = "arbitrary_precision")]
fn finite<E: de::Error>(text: &str) -> Result<Json, E> {
    match text.parse::<f64>() {
        Ok(f) if f.is_finite() => text.parse::<Number>().map(Json::Number).map_err(E::custom),
        _ => Err(E::custom("number too large for a double")),
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        Number::from_f64(v)
            .map(Json::Number)
            .ok_or_else(|| E::custom("number too large for a double"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let depth = self.enter()?;
        let mut items = Vec::new();
        loop {
            let item = Node {
                depth,
                trail: self.trail,
            };
            match seq.next_element_seed(item) {
                Ok(Some(v)) => items.push(v),
                Ok(None) => return Ok(Json::Array(items)),
                Err(e) => {
                    self.trail.borrow_mut().push(Segment::Index(items.len()));
                    return Err(e);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let depth = self.enter()?;
        let mut out: Vec<(String, Json)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            #[cfg(feature = "arbitrary_precision")]
            if out.is_empty() && key == NUMBER_TOKEN {
                let text: String = map.next_value()?;
                return finite(&text);
            }
            let item = Node {
                depth,
                trail: self.trail,
            };
            match map.next_value_seed(item) {
                Ok(v) => out.push((key, v)),
                Err(e) => {
                    self.trail.borrow_mut().push(Segment::Key(key));
                    return Err(e);
                }
            }
        }
        if let Some(key) = twice(&out) {
            let reason = format!("key {} given twice", Value::from(key));
            return Err(de::Error::custom(reason));
        }
        Ok(Json::Object(out))
    }
}

/// A key given twice among `members`, if any (sorted for a large object: a hostile one must
/// not make this quadratic).
fn twice(members: &[(String, Json)]) -> Option<&str> {
    if members.len() <= 16 {
        let keys = members.iter().map(|(k, _)| k.as_str());
        return keys
            .enumerate()
            .find(|(i, k)| members[..*i].iter().any(|(o, _)| o == k))
            .map(|(_, k)| k);
    }
    let mut keys: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    keys.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

/// serde's entry: read a [`Value`], then decode it strictly.
pub fn via_json<'de, D: Deserializer<'de>, T: FromJson>(d: D) -> Result<T, D::Error> {
    let trail = RefCell::new(Vec::new());
    let seed = Node {
        depth: 0,
        trail: &trail,
    };
    let value = seed.deserialize(d)?;
    T::from_json(value, Cx::default(), &Path::Root).map_err(serde::de::Error::custom)
}

/// The JSON kind of a value, as messages name it.
pub fn describe(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

/// `expected X, got Y` at `at`.
pub fn mismatch(at: &Path<'_>, expected: &str, value: &Json) -> Error {
    Error::new(at, format!("expected {expected}, got {}", describe(value)))
}

/// [`mismatch`] as a result.
pub fn mismatched<T>(at: &Path<'_>, expected: &str, value: &Json) -> Result<T, Error> {
    Err(mismatch(at, expected, value))
}

/// The JSON kinds a union dispatches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// any number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

/// The kind of `value`.
pub fn kind(value: &Json) -> Kind {
    match value {
        Json::Null => Kind::Null,
        Json::Bool(_) => Kind::Bool,
        Json::Number(_) => Kind::Number,
        Json::String(_) => Kind::String,
        Json::Array(_) => Kind::Array,
        Json::Object(_) => Kind::Object,
    }
}

impl FromJson for Value {
    fn from_json(value: Json, _: Cx, _: &Path<'_>) -> Result<Self, Error> {
        Ok(value.into_value())
    }
}

impl FromJson for String {
    fn from_json(value: Json, _: Cx, at: &Path<'_>) -> Result<Self, Error> {
        match value {
            Json::String(s) => Ok(s),
            other => Err(mismatch(at, "string", &other)),
        }
    }
}

impl FromJson for bool {
    fn from_json(value: Json, _: Cx, at: &Path<'_>) -> Result<Self, Error> {
        match value {
            Json::Bool(b) => Ok(b),
            other => Err(mismatch(at, "boolean", &other)),
        }
    }
}

impl FromJson for Number {
    fn from_json(value: Json, _: Cx, at: &Path<'_>) -> Result<Self, Error> {
        match value {
            Json::Number(n) => Ok(n),
            other => Err(mismatch(at, "number", &other)),
        }
    }
}

impl FromJson for i64 {
    fn from_json(value: Json, _: Cx, at: &Path<'_>) -> Result<Self, Error> {
        match &value {
            Json::Number(n) => match n.as_i64() {
                Some(i) => Ok(i),
                None if n.as_f64().is_some_and(|f| f.fract() == 0.0) => {
                    Err(Error::new(at, "integer out of the 64-bit range"))
                }
                None => Err(mismatch(at, "integer", &value)),
            },
            _ => Err(mismatch(at, "integer", &value)),
        }
    }
}

impl FromJson for Map<String, Value> {
    fn from_json(value: Json, _: Cx, at: &Path<'_>) -> Result<Self, Error> {
        match value {
            Json::Object(members) => Ok(into_map(members)),
            other => Err(mismatch(at, "object", &other)),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: Json, cx: Cx, at: &Path<'_>) -> Result<Self, Error> {
        match value {
            Json::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| T::from_json(item, cx, &at.index(i)))
                .collect(),
            other => Err(mismatch(at, "array", &other)),
        }
    }
}

impl<T: FromJson> FromJson for BTreeMap<String, T> {
    fn from_json(value: Json, cx: Cx, at: &Path<'_>) -> Result<Self, Error> {
        match value {
            Json::Object(members) => members
                .into_iter()
                .map(|(k, v)| {
                    let item = T::from_json(v, cx, &at.key(&k))?;
                    Ok((k, item))
                })
                .collect(),
            other => Err(mismatch(at, "object", &other)),
        }
    }
}

impl<T: FromJson> FromJson for Box<T> {
    fn from_json(value: Json, cx: Cx, at: &Path<'_>) -> Result<Self, Error> {
        T::from_json(value, cx, at).map(Box::new)
    }
}

/// A constant a member must have (`"type": "text"`, `"jsonrpc": "2.0"`, an error code).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lit {
    /// A string constant.
    Str(&'static str),
    /// An integer constant.
    Int(i64),
    /// A number constant that is not an integer.
    Num(f64),
    /// A boolean constant.
    Bool(bool),
}

impl Lit {
    fn matches(&self, value: &Json) -> bool {
        match (self, value) {
            (Lit::Str(s), Json::String(v)) => s == v,
            (Lit::Int(i), Json::Number(n)) => n.as_f64() == Some(*i as f64),
            (Lit::Num(x), Json::Number(n)) => n.as_f64() == Some(*x),
            (Lit::Bool(b), Json::Bool(v)) => b == v,
            _ => false,
        }
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lit::Str(s) => write!(f, "{}", Value::from(*s)),
            Lit::Int(i) => write!(f, "{i}"),
            Lit::Num(x) => write!(f, "{x}"),
            Lit::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl Serialize for Lit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Lit::Str(v) => s.serialize_str(v),
            Lit::Int(v) => s.serialize_i64(*v),
            Lit::Num(v) => s.serialize_f64(*v),
            Lit::Bool(v) => s.serialize_bool(*v),
        }
    }
}

/// Bounds from `@minimum`, `@maximum`, `@minItems` and `@maxItems`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    minimum: Option<f64>,
    maximum: Option<f64>,
    min_items: Option<usize>,
    max_items: Option<usize>,
}

impl Bounds {
    /// Numeric bounds.
    pub const fn range(minimum: Option<f64>, maximum: Option<f64>) -> Self {
        Bounds {
            minimum,
            maximum,
            min_items: None,
            max_items: None,
        }
    }

    /// Item counts.
    pub const fn items(min_items: Option<usize>, max_items: Option<usize>) -> Self {
        Bounds {
            minimum: None,
            maximum: None,
            min_items,
            max_items,
        }
    }

    /// Check a raw value against these bounds (before it is decoded).
    pub fn check(&self, value: &Json, at: &Path<'_>) -> Result<(), Error> {
        if let Json::Number(n) = value {
            let x = n.as_f64().unwrap_or(f64::NAN);
            if let Some(min) = self.minimum.filter(|min| x < *min) {
                return Err(Error::new(at, format!("must be >= {min}")));
            }
            if let Some(max) = self.maximum.filter(|max| x > *max) {
                return Err(Error::new(at, format!("must be <= {max}")));
            }
        }
        if let Json::Array(items) = value {
            let n = items.len();
            if let Some(min) = self.min_items.filter(|min| n < *min) {
                return Err(Error::new(at, format!("must have at least {min} items")));
            }
            if let Some(max) = self.max_items.filter(|max| n > *max) {
                return Err(Error::new(at, format!("must have at most {max} items")));
            }
        }
        Ok(())
    }
}

/// An object being decoded: each declared member is taken out of it, the rest is kept.
pub struct Obj<'a> {
    members: Vec<(String, Json)>,
    cx: Cx,
    at: &'a Path<'a>,
}

impl<'a> Obj<'a> {
    /// The object `value`, or an error naming the type expected.
    pub fn new(value: Json, cx: Cx, at: &'a Path<'a>, name: &str) -> Result<Self, Error> {
        match value {
            Json::Object(members) => Ok(Obj { members, cx, at }),
            other => Err(mismatch(at, &format!("object ({name})"), &other)),
        }
    }

    fn missing(&self, key: &str) -> Error {
        Error::new(&self.at.key(key), "required property missing")
    }

    /// A required member.
    pub fn req<T: FromJson>(&mut self, key: &'static str) -> Result<T, Error> {
        match self.take(key) {
            Some(v) => T::from_json(v, self.cx, &self.at.key(key)),
            None => Err(self.missing(key)),
        }
    }

    /// An optional member.
    pub fn opt<T: FromJson>(&mut self, key: &'static str) -> Result<Option<T>, Error> {
        match self.take(key) {
            Some(v) => T::from_json(v, self.cx, &self.at.key(key)).map(Some),
            None => Ok(None),
        }
    }

    /// A required member with bounds.
    pub fn req_in<T: FromJson>(&mut self, key: &'static str, b: Bounds) -> Result<T, Error> {
        match self.take(key) {
            Some(v) => {
                let at = self.at.key(key);
                b.check(&v, &at)?;
                T::from_json(v, self.cx, &at)
            }
            None => Err(self.missing(key)),
        }
    }

    /// An optional member with bounds.
    pub fn opt_in<T: FromJson>(
        &mut self,
        key: &'static str,
        b: Bounds,
    ) -> Result<Option<T>, Error> {
        match self.take(key) {
            Some(v) => {
                let at = self.at.key(key);
                b.check(&v, &at)?;
                T::from_json(v, self.cx, &at).map(Some)
            }
            None => Ok(None),
        }
    }

    /// A required member that may be `null` (`None`).
    pub fn req_null<T: FromJson>(&mut self, key: &'static str) -> Result<Option<T>, Error> {
        match self.take(key) {
            Some(Json::Null) => Ok(None),
            Some(v) => T::from_json(v, self.cx, &self.at.key(key)).map(Some),
            None => Err(self.missing(key)),
        }
    }

    /// An optional member that may be `null` (`Some(None)`).
    pub fn opt_null<T: FromJson>(&mut self, key: &'static str) -> Result<Option<Option<T>>, Error> {
        match self.take(key) {
            Some(Json::Null) => Ok(Some(None)),
            Some(v) => T::from_json(v, self.cx, &self.at.key(key)).map(|x| Some(Some(x))),
            None => Ok(None),
        }
    }

    /// A required member that must equal `lit`.
    pub fn lit(&mut self, key: &'static str, lit: Lit) -> Result<(), Error> {
        match self.take(key) {
            Some(v) if lit.matches(&v) => Ok(()),
            Some(_) => Err(Error::new(&self.at.key(key), format!("must be {lit}"))),
            None => Err(self.missing(key)),
        }
    }

    /// An optional member that must equal `lit` when present (`true` when it is).
    pub fn opt_lit(&mut self, key: &'static str, lit: Lit) -> Result<bool, Error> {
        match self.take(key) {
            Some(v) if lit.matches(&v) => Ok(true),
            Some(_) => Err(Error::new(&self.at.key(key), format!("must be {lit}"))),
            None => Ok(false),
        }
    }

    fn take(&mut self, key: &str) -> Option<Json> {
        let i = self.members.iter().position(|(k, _)| k == key)?;
        Some(self.members.swap_remove(i).1)
    }

    /// The members no property declares, kept as they came.
    pub fn rest(self) -> Map<String, Value> {
        into_map(self.members)
    }

    /// The members no property declares, each decoded as the index signature's type.
    pub fn rest_as<T: FromJson>(self) -> Result<BTreeMap<String, T>, Error> {
        let (cx, at) = (self.cx, self.at);
        self.members
            .into_iter()
            .map(|(k, v)| {
                let item = T::from_json(v, cx, &at.key(&k))?;
                Ok((k, item))
            })
            .collect()
    }
}

/// A union told apart by a discriminator: its name, the member that carries the tag and the
/// values every member declares (for messages).
#[derive(Debug, Clone, Copy)]
pub struct Tagged {
    /// The union's name.
    pub name: &'static str,
    /// The discriminator's wire name.
    pub key: &'static str,
    /// The tag values, JSON-quoted and comma-separated.
    pub values: &'static str,
}

/// The discriminator of `value` (an object that must carry `tagged.key` as a string).
pub fn tag(value: &Json, at: &Path<'_>, tagged: &Tagged) -> Result<String, Error> {
    if !matches!(value, Json::Object(_)) {
        return Err(mismatch(at, &format!("object ({})", tagged.name), value));
    }
    match value.get(tagged.key) {
        Some(Json::String(s)) => Ok(s.clone()),
        Some(other) => Err(mismatch(&at.key(tagged.key), "string", other)),
        None => Err(Error::new(
            &at.key(tagged.key),
            format!(
                "required property missing (the {} discriminator)",
                tagged.name
            ),
        )),
    }
}

/// A tag no member declares: kept when tolerant, else an error listing the known tags.
pub fn unknown(value: Json, cx: Cx, at: &Path<'_>, tagged: &Tagged) -> Result<Value, Error> {
    if cx.tolerant {
        return Ok(value.into_value());
    }
    let found = value
        .get(tagged.key)
        .cloned()
        .map_or(Value::Null, Json::into_value);
    let reason = format!(
        "{} is no {} member's {} (expected one of {})",
        found, tagged.name, tagged.key, tagged.values
    );
    Err(Error::new(&at.key(tagged.key), reason))
}

/// The strings of an enum: its name and values (JSON-quoted, comma-separated), for messages.
#[derive(Debug, Clone, Copy)]
pub struct Strings {
    /// The enum's name.
    pub name: &'static str,
    /// Its values.
    pub values: &'static str,
}

/// A string none of an enum's values is: kept (wrapped) when tolerant, else an error.
pub fn unknown_enum<U>(
    s: &str,
    cx: Cx,
    at: &Path<'_>,
    e: &Strings,
    wrap: fn(String) -> U,
) -> Result<U, Error> {
    unknown_str(s, cx, at, e.name, e.values).map(wrap)
}

/// A string none of an enum's values is: kept when tolerant, else an error.
pub fn unknown_str(
    s: &str,
    cx: Cx,
    at: &Path<'_>,
    name: &str,
    values: &str,
) -> Result<String, Error> {
    if cx.tolerant {
        return Ok(s.to_owned());
    }
    let reason = format!(
        "{} is no {name} value (expected one of {values})",
        Value::from(s)
    );
    Err(Error::new(at, reason))
}

/// The members of a union without a discriminator: each one's required keys, most first.
#[derive(Debug, Clone, Copy)]
pub struct Alts {
    /// The union's name.
    pub name: &'static str,
    /// Per member, in the order they are tried, a line: the keys it requires, tab-separated.
    pub required: &'static str,
}

/// Tries the members of an [`Alts`] union whose required keys an object has, in order.
pub struct Tries<'a> {
    value: Option<Json>,
    alts: &'a Alts,
    at: &'a Path<'a>,
    fits: Vec<usize>,
    next: usize,
    errors: Vec<(usize, Error)>,
}

impl<'a> Tries<'a> {
    /// Start on `value`, which must be an object.
    pub fn new(value: Json, at: &'a Path<'a>, alts: &'a Alts) -> Result<Self, Error> {
        if !matches!(value, Json::Object(_)) {
            return Err(mismatch(at, &format!("object ({})", alts.name), &value));
        }
        let fits = alts
            .required
            .split('\n')
            .enumerate()
            .filter(|(_, keys)| {
                keys.split('\t')
                    .all(|k| k.is_empty() || value.get(k).is_some())
            })
            .map(|(i, _)| i)
            .collect();
        Ok(Tries {
            value: Some(value),
            alts,
            at,
            fits,
            next: 0,
            errors: Vec::new(),
        })
    }

    /// The next member to try and the value to decode (a copy unless it is the last).
    pub fn next_member(&mut self) -> Option<(usize, Json)> {
        let i = *self.fits.get(self.next)?;
        self.next += 1;
        let value = if self.next == self.fits.len() {
            self.value.take()?
        } else {
            self.value.clone()?
        };
        Some((i, value))
    }

    /// Note why the member just tried refused the value.
    pub fn fail(&mut self, error: Error) {
        let i = self.fits[self.next - 1];
        self.errors.push((i, error));
    }

    /// The error once every member has refused: the one member's own error, or a summary.
    pub fn error(mut self) -> Error {
        if self.errors.len() == 1 {
            return self.errors.remove(0).1;
        }
        if self.errors.is_empty() {
            let reason = format!(
                "matches no member of {} (no member's required keys are all present)",
                self.alts.name
            );
            return Error::new(self.at, reason);
        }
        let why: Vec<String> = self.errors.iter().map(|(_, e)| e.to_string()).collect();
        let reason = format!(
            "matches no member of {}: {}",
            self.alts.name,
            why.join("; ")
        );
        Error::new(self.at, reason)
    }
}

/// Write `value` under `key` unless it is `None`.
pub fn put<M: SerializeMap, T: Serialize>(
    m: &mut M,
    key: &str,
    value: &Option<T>,
) -> Result<(), M::Error> {
    match value {
        Some(v) => m.serialize_entry(key, v),
        None => Ok(()),
    }
}

/// Write the members a type does not declare, as they came.
pub fn put_all<M: SerializeMap, T: Serialize>(
    m: &mut M,
    rest: &BTreeMap<String, T>,
) -> Result<(), M::Error> {
    rest.iter().try_for_each(|(k, v)| m.serialize_entry(k, v))
}

/// Write the members a type does not declare (kept as JSON), as they came.
pub fn put_rest<M: SerializeMap>(m: &mut M, rest: &Map<String, Value>) -> Result<(), M::Error> {
    rest.iter().try_for_each(|(k, v)| m.serialize_entry(k, v))
}

/// Encode `value` as compact JSON.
pub fn to_string<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("a generated type always encodes")
}
