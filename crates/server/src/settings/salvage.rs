//! Loading that reports every problem at once (docs/api.md#command-line): after each load problem the
//! offending key is dropped (an unknown or wrongly typed key) or stood in for (a missing
//! required one) and loading is tried again, so one typo never hides the next. The
//! salvaged settings are then validated too, so a short `secret_key` is reported beside an
//! unknown provider key.

use super::errors::from_config_error;
use super::{ConfigErrors, ConfigProblem, Settings};
use config::{Map, Value, ValueKind};

/// Every key of a file is at most one problem: the loop ends long before this.
const MAX_ROUNDS: usize = 256;

/// What stands in for a missing `secret_key` while the rest is checked; never used to run.
const STAND_IN_SECRET: &str = "stand-in for a missing secret_key, never used";

/// Deserializes `root`; on failure, every problem found, including the validation problems
/// of what could be loaded.
pub(super) fn deserialize(mut root: Value, file: &str) -> Result<Settings, ConfigErrors> {
    let mut problems: Vec<ConfigProblem> = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let error = match root.clone().try_deserialize::<Settings>() {
            Ok(settings) if problems.is_empty() => return Ok(settings),
            Ok(settings) => return Err(with_validation(problems, &settings)),
            Err(error) => error,
        };
        let problem = from_config_error(&error, file);
        let salvaged = !problem.field.is_empty() && repair(&mut root, &problem);
        let repeated = problems.contains(&problem);
        if !repeated {
            problems.push(problem);
        }
        if !salvaged || repeated {
            break;
        }
    }
    Err(ConfigErrors::from_problems(problems))
}

/// Adds the validation problems of the salvaged settings, except for fields already
/// reported (a stood-in or dropped value would only be reported twice).
fn with_validation(mut problems: Vec<ConfigProblem>, settings: &Settings) -> ConfigErrors {
    if let Err(invalid) = settings.validate() {
        for problem in invalid.problems() {
            let known = problems
                .iter()
                .any(|seen| !seen.field.is_empty() && problem.field.starts_with(&seen.field));
            if !known {
                problems.push(problem.clone());
            }
        }
    }
    ConfigErrors::from_problems(problems)
}

/// Removes the key named by `problem` from `root`, or, when it is missing, puts a stand-in
/// in its place. False when the path leads nowhere (nothing to repair).
fn repair(root: &mut Value, problem: &ConfigProblem) -> bool {
    // `previous_secret_keys[1]` → the whole list goes.
    let path = problem.field.split('[').next().unwrap_or_default();
    let mut keys: Vec<&str> = path.split('.').collect();
    let Some(last) = keys.pop() else {
        return false;
    };
    let Some(table) = table_at(root, &keys) else {
        return false;
    };
    if problem.message == "required" {
        return table.insert(last.to_owned(), stand_in(path)).is_none();
    }
    // `shift_remove`: the tables keep their order (providers are listed in it).
    table.shift_remove(last).is_some()
}

fn table_at<'a>(root: &'a mut Value, keys: &[&str]) -> Option<&'a mut Map<String, Value>> {
    let mut current = root;
    for key in keys {
        let ValueKind::Table(table) = &mut current.kind else {
            return None;
        };
        current = table.get_mut(*key)?;
    }
    match &mut current.kind {
        ValueKind::Table(table) => Some(table),
        _ => None,
    }
}

fn stand_in(path: &str) -> Value {
    let text = if path == "secret_key" {
        STAND_IN_SECRET
    } else {
        ""
    };
    Value::new(None, ValueKind::String(text.to_owned()))
}
