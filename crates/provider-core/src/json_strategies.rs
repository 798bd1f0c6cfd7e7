//! Proptest strategies for what providers send: arbitrary JSON, structure-aware mutations of
//! a valid document (fields removed, emptied, retyped, oversized, nested deep, huge numbers,
//! objects in positional form), and raw bodies around it (truncated, random bytes, nesting
//! at serde_json's limit).
//!
//! Test support only, behind the `strategies` feature that the adapter crates turn on for
//! their dev-dependency: every parser of outside input gets its property tests from here.

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Map, Number, Value, json};

/// How long an "oversized" string is: far beyond any field a provider sends.
pub const OVERSIZED_CHARS: usize = 70_000;

/// How deep serde_json parses before refusing (its recursion limit).
pub const SERDE_DEPTH_LIMIT: usize = 128;

/// Short strings of every kind: printable ASCII, any Unicode (controls included), empty,
/// email-shaped, number- and boolean-shaped.
pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[ -~]{0,24}",
        2 => any::<String>().prop_map(|text| text.chars().take(24).collect()),
        1 => Just(String::new()),
        1 => "[a-z]{1,8}@[a-z]{1,8}\\.[a-z]{2,3}",
        1 => prop_oneof![Just("true"), Just("false"), Just("0"), Just("1"), Just("null")]
            .prop_map(str::to_owned),
    ]
}

/// Numbers at the edges: any `i64`/`u64`/finite `f64`, and the extremes named.
pub fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        prop_oneof![
            Just(json!(u64::MAX)),
            Just(json!(i64::MIN)),
            Just(json!(i64::MAX)),
            Just(json!(1e308)),
            Just(json!(-1e308)),
            Just(json!(0.5)),
            Just(json!(-1)),
        ],
    ]
}

/// Any JSON scalar.
pub fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        text().prop_map(Value::String),
    ]
}

/// Any JSON value a few levels deep; object keys are drawn from `keys` half the time, so
/// random objects still hit the fields a parser looks for.
pub fn json_value_with_keys(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 24, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(keys), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Any JSON value a few levels deep.
pub fn json_value() -> impl Strategy<Value = Value> {
    json_value_with_keys(&[])
}

/// A JSON object whose members are drawn from `keys` (and a few others), each of any type.
pub fn object_with_keys(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop::collection::vec((key(keys), json_value_with_keys(keys)), 0..8)
        .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>()))
}

fn key(keys: &'static [&'static str]) -> BoxedStrategy<String> {
    let random = "[a-z_]{1,10}".boxed();
    if keys.is_empty() {
        return random;
    }
    prop_oneof![prop::sample::select(keys).prop_map(str::to_owned), random].boxed()
}

/// One change to a document.
#[derive(Debug, Clone)]
pub enum Edit {
    Remove,
    /// The empty value of its type: `""`, `0`, `false`, `[]`, `{}`.
    Empty,
    Replace(Value),
    Oversize,
    /// Wrapped in this many arrays.
    Nest(usize),
    /// An object replaced by the array of its values: the positional form serde's derive
    /// would otherwise take for a struct.
    Positional,
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        2 => Just(Edit::Remove),
        2 => Just(Edit::Empty),
        3 => json_value().prop_map(Edit::Replace),
        2 => number().prop_map(Edit::Replace),
        1 => Just(Edit::Oversize),
        1 => (1..SERDE_DEPTH_LIMIT - 8).prop_map(Edit::Nest),
        2 => Just(Edit::Positional),
    ]
}

/// `document` with one to three edits at places chosen anywhere in it (the root included).
pub fn mutated(document: Value) -> impl Strategy<Value = Value> {
    prop::collection::vec((any::<Index>(), edit()), 1..4).prop_map(move |edits| {
        let mut document = document.clone();
        for (at, edit) in edits {
            apply(&mut document, at, edit);
        }
        document
    })
}

/// Where a value sits: the keys and indices from the root.
type Path = Vec<Step>;

#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn paths(value: &Value, prefix: &mut Path, into: &mut Vec<Path>) {
    into.push(prefix.clone());
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                prefix.push(Step::Key(name.clone()));
                paths(member, prefix, into);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                prefix.push(Step::Index(index));
                paths(item, prefix, into);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn at_path<'v>(value: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |value, step| match step {
        Step::Key(name) => value.get_mut(name.as_str()),
        Step::Index(index) => value.get_mut(*index),
    })
}

fn apply(document: &mut Value, at: Index, edit: Edit) {
    let mut all = Vec::new();
    paths(document, &mut Vec::new(), &mut all);
    let path = at.get(&all).clone();
    match edit {
        Edit::Remove => match path.split_last() {
            Some((last, parent)) => match (at_path(document, parent), last) {
                (Some(Value::Object(members)), Step::Key(name)) => {
                    members.remove(name);
                }
                (Some(Value::Array(items)), Step::Index(index)) => {
                    items.remove(*index);
                }
                _ => {}
            },
            None => *document = Value::Null,
        },
        Edit::Empty => {
            if let Some(target) = at_path(document, &path) {
                *target = match target {
                    Value::String(_) => json!(""),
                    Value::Number(_) => json!(0),
                    Value::Bool(_) => json!(false),
                    Value::Array(_) => json!([]),
                    Value::Object(_) => json!({}),
                    Value::Null => Value::Null,
                };
            }
        }
        Edit::Replace(value) => set(document, &path, value),
        Edit::Oversize => {
            let seed = match at_path(document, &path) {
                Some(Value::String(text)) if !text.is_empty() => text.clone(),
                _ => "é".to_owned(),
            };
            let long: String = seed.chars().cycle().take(OVERSIZED_CHARS).collect();
            set(document, &path, Value::String(long));
        }
        Edit::Positional => {
            if let Some(Value::Object(members)) = at_path(document, &path) {
                let values = std::mem::take(members).into_values().collect();
                set(document, &path, Value::Array(values));
            }
        }
        Edit::Nest(depth) => {
            if let Some(target) = at_path(document, &path) {
                let mut nested = target.take();
                for _ in 0..depth {
                    nested = Value::Array(vec![nested]);
                }
                *target = nested;
            }
        }
    }
}

fn set(document: &mut Value, path: &[Step], value: Value) {
    if let Some(target) = at_path(document, path) {
        *target = value;
    }
}

/// Bodies around `document`: mutated copies, its text cut at any byte, random bytes, any
/// JSON, and bare nesting up to past serde_json's limit.
pub fn body_bytes(document: Value) -> impl Strategy<Value = Vec<u8>> {
    let text = serde_json::to_vec(&document).expect("a JSON value serialises");
    prop_oneof![
        4 => mutated(document).prop_map(|value| to_bytes(&value)),
        2 => any::<Index>().prop_map(move |at| text[..at.index(text.len() + 1)].to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..256),
        1 => json_value().prop_map(|value| to_bytes(&value)),
        1 => (1..SERDE_DEPTH_LIMIT + 16)
            .prop_map(|depth| format!("{}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes()),
    ]
}

/// A provider document's body: mostly [`body_bytes`] around `valid`, sometimes an object of
/// the parser's own `keys` with values of any type.
pub fn document(valid: Value, keys: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => body_bytes(valid),
        1 => object_with_keys(keys).prop_map(|value| to_bytes(&value)),
    ]
}

fn to_bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).expect("a JSON value serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    fn depth(value: &Value) -> usize {
        match value {
            Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
            Value::Object(members) => 1 + members.values().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }

    /// Every kind of edit shows up in a modest number of cases, so the properties built on
    /// these strategies do see removed, retyped, oversized and deeply nested fields.
    #[test]
    fn mutations_remove_retype_oversize_nest_and_flatten_to_arrays() {
        let document = json!({"id": 1, "name": "Ada", "emails": [{"email": "a@b.c"}]});
        let mut runner = TestRunner::deterministic();
        let (mut removed, mut retyped, mut oversized, mut nested) = (false, false, false, false);
        let mut positional = false;
        for _ in 0..300 {
            let value = mutated(document.clone())
                .new_tree(&mut runner)
                .unwrap()
                .current();
            removed |= value.get("name").is_none();
            retyped |= value.get("id").is_some_and(|id| !id.is_u64());
            oversized |= value.to_string().len() > OVERSIZED_CHARS;
            nested |= depth(&value) > 10;
            positional |= value.is_array() || value["emails"][0].is_array();
        }
        assert!(removed && retyped && oversized && nested && positional);
    }

    #[test]
    fn truncated_bodies_are_prefixes_of_the_document() {
        let document = json!({"access_token": "x"});
        let text = serde_json::to_vec(&document).unwrap();
        let mut runner = TestRunner::deterministic();
        let mut prefixes = 0;
        for _ in 0..200 {
            let body = body_bytes(document.clone())
                .new_tree(&mut runner)
                .unwrap()
                .current();
            if body.len() < text.len() && text.starts_with(&body) {
                prefixes += 1;
            }
        }
        assert!(prefixes > 0);
    }
}
