//! Property tests of loading: any text, and the full sample with any key set to any value,
//! loads or fails with problems, never panics, and no problem ever quotes a value.

use super::fixtures::full_toml;
use crate::settings::Settings;
use proptest::prelude::*;

/// A value that would be a leak if a problem quoted it.
const MARKER: &str = "leak-marker-7f3a";

/// TOML values of every kind, each carrying the marker where it can.
fn toml_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(format!("\"{MARKER}\"")),
        Just(format!("[\"{MARKER}\", 1]")),
        Just(format!("{{ x = \"{MARKER}\" }}")),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<bool>().prop_map(|b| b.to_string()),
        Just("1.5e300".to_owned()),
        Just("-0".to_owned()),
        Just(format!("\"\"\"\n{MARKER}\n\"\"\"")),
    ]
}

/// Every key the sample sets, by its table.
fn sample_keys() -> Vec<(String, String)> {
    let mut table = String::new();
    let mut keys = Vec::new();
    for line in full_toml().lines() {
        let line = line.trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.to_owned();
        } else if let Some((key, _)) = line.split_once(" = ") {
            keys.push((table.clone(), key.trim().to_owned()));
        }
    }
    keys
}

/// The sample with the value of its `index`-th key replaced by `value`.
fn with_value(index: usize, value: &str) -> String {
    let keys = sample_keys();
    let (table, key) = &keys[index % keys.len()];
    let mut current = String::new();
    let mut out = String::new();
    let mut replaced = false;
    for line in full_toml().lines() {
        let trimmed = line.trim();
        if let Some(name) = trimmed.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = name.to_owned();
        }
        match trimmed.split_once(" = ") {
            Some((k, _)) if !replaced && &current == table && k.trim() == key => {
                out.push_str(&format!("{key} = {value}\n"));
                replaced = true;
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

fn never_quotes_the_marker(toml: &str) -> Result<(), TestCaseError> {
    if let Err(problems) = Settings::from_toml(toml).and_then(|settings| {
        settings.validate()?;
        Ok(settings)
    }) {
        prop_assert!(
            !problems.to_string().contains(MARKER),
            "a problem quotes a value:\n{problems}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_loads_or_fails_without_panicking(text in "\\PC{0,400}") {
        let _ = Settings::from_toml(&text);
    }

    #[test]
    fn any_value_at_any_key_of_the_sample_is_never_quoted(
        index in 0usize..200,
        value in toml_value(),
    ) {
        never_quotes_the_marker(&with_value(index, &value))?;
    }

    #[test]
    fn unknown_keys_and_tables_are_never_quoted_by_value(
        table in "[a-z_]{1,12}",
        key in "[a-z_]{1,12}",
        value in toml_value(),
    ) {
        let toml = format!("{}\n[{table}]\n{key} = {value}\n", full_toml());
        never_quotes_the_marker(&toml)?;
    }
}

#[test]
fn the_mutation_reaches_every_key_of_the_sample() {
    let keys = sample_keys();
    assert!(keys.len() > 20, "{keys:?}");
    for (index, key) in keys.iter().enumerate() {
        let mutated = with_value(index, &format!("\"{MARKER}\""));
        assert_ne!(mutated, full_toml(), "key {index} {key:?}");
        assert!(mutated.contains(MARKER));
    }
}
