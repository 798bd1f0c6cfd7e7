//! Configuration problems: each names its field, none ever quotes a configured value.

use std::fmt;

/// One thing wrong with the configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// Dotted field path (`oauth_providers.github.redirect_uri`, `previous_secret_keys[1]`);
    /// empty for problems with the file as a whole.
    pub field: String,
    /// What is wrong, without the offending value (it may be a secret).
    pub message: String,
}

impl ConfigProblem {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

/// Every problem found; `Display` prints one per line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigErrors {
    problems: Vec<ConfigProblem>,
}

impl ConfigErrors {
    pub fn problems(&self) -> &[ConfigProblem] {
        &self.problems
    }

    /// True when some problem concerns exactly `field`.
    pub fn mentions(&self, field: &str) -> bool {
        self.problems.iter().any(|problem| problem.field == field)
    }

    /// Adds a problem, once: two checks that find the same one (a table's rule and its
    /// declaration's) report it once.
    pub(crate) fn push(&mut self, field: impl Into<String>, message: impl Into<String>) {
        let problem = ConfigProblem::new(field, message);
        if !self.problems.contains(&problem) {
            self.problems.push(problem);
        }
    }

    /// Adds every problem of `other` after these.
    pub(crate) fn extend(&mut self, other: ConfigErrors) {
        self.problems.extend(other.problems);
    }

    pub(crate) fn from_problems(problems: Vec<ConfigProblem>) -> Self {
        Self { problems }
    }

    pub(crate) fn single(field: impl Into<String>, message: impl Into<String>) -> Self {
        let mut errors = Self::default();
        errors.push(field, message);
        errors
    }

    pub(crate) fn into_result(self) -> Result<(), Self> {
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }
}

impl From<ConfigProblem> for ConfigErrors {
    fn from(problem: ConfigProblem) -> Self {
        Self {
            problems: vec![problem],
        }
    }
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, problem) in self.problems.iter().enumerate() {
            if index > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}

/// Translates an error of the `config` crate into a problem naming its field.
///
/// Its own messages may quote values (`invalid type: string "…"`, TOML snippets of the
/// offending line), and a misplaced value can be a secret, so those parts are dropped.
pub(crate) fn from_config_error(error: &config::ConfigError, file: &str) -> ConfigProblem {
    match error {
        config::ConfigError::NotFound(key) => ConfigProblem::new(key.as_str(), "required"),
        config::ConfigError::Type { key, expected, .. } => ConfigProblem::new(
            key.clone().unwrap_or_default(),
            format!("invalid type, expected {expected}"),
        ),
        config::ConfigError::At { error, key, .. } => {
            let inner = from_config_error(error, file);
            let field = match (key.as_deref(), inner.field.is_empty()) {
                (Some(key), true) => key.to_owned(),
                (Some(key), false) => format!("{key}.{}", inner.field),
                (None, _) => inner.field,
            };
            ConfigProblem::new(field, inner.message)
        }
        config::ConfigError::FileParse { cause, .. } => ConfigProblem::new(
            "",
            format!("{file}: {}", without_snippet(&cause.to_string())),
        ),
        config::ConfigError::Message(message) => from_serde_message(message),
        other => ConfigProblem::new("", without_quoted_strings(&other.to_string())),
    }
}

/// serde reports an unknown key as "unknown field `x`, expected one of …": make `x` the field.
fn from_serde_message(message: &str) -> ConfigProblem {
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some((name, hint)) = rest.split_once('`')
    {
        let hint = hint.trim_start_matches(',').trim();
        return ConfigProblem::new(name, format!("unknown key ({hint})"));
    }
    // `config`'s own wording for an unknown enum value ("enum X does not have variant
    // constructor <the value>"): the value is never repeated.
    if let Some(rest) = message.strip_prefix("enum ")
        && let Some((name, _value)) = rest.split_once(" does not have variant constructor")
    {
        let choices = match name {
            "StateStoreBackend" => "must be \"memory\" or \"redis\"",
            "IdTokenNonce" => "must be \"required\" or \"optional\"",
            "TokenEndpointAuth" => "must be \"client_secret_basic\" or \"client_secret_post\"",
            "LinkingConfig" => "must be \"auto\", \"confirm\" or \"never\"",
            _ => "is not one of the values docs/configuration.md lists for it",
        };
        return ConfigProblem::new("", choices);
    }
    ConfigProblem::new("", without_quoted_strings(message))
}

/// Keeps the position and reason of a TOML syntax error, drops the quoted source lines
/// (`1 | secret_key = "…`), which would print whatever the broken line holds.
fn without_snippet(report: &str) -> String {
    report
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !is_snippet_line(line))
        .collect::<Vec<_>>()
        .join("; ")
}

fn is_snippet_line(line: &str) -> bool {
    let after_number = line.trim_start_matches(|c: char| c.is_ascii_digit());
    after_number.trim_start().starts_with('|')
}

/// Replaces each `string "…"` (serde's description of an unexpected value) with `a string`.
pub(crate) fn without_quoted_strings(message: &str) -> String {
    const MARK: &str = "string \"";
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(start) = rest.find(MARK) {
        out.push_str(&rest[..start]);
        out.push_str("a string");
        rest = skip_quoted(&rest[start + MARK.len()..]);
    }
    out.push_str(rest);
    out
}

/// `text` starts inside a Debug-quoted string: returns what follows its closing quote.
fn skip_quoted(text: &str) -> &str {
    let mut escaped = false;
    for (index, c) in text.char_indices() {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '"') => return &text[index + 1..],
            _ => {}
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings_are_removed_even_with_escaped_quotes() {
        let message = r#"invalid type: string "se\"cr,et", expected a sequence"#;
        assert_eq!(
            without_quoted_strings(message),
            "invalid type: a string, expected a sequence"
        );
    }

    #[test]
    fn toml_snippets_are_dropped_but_position_and_reason_kept() {
        let report = "TOML parse error at line 1, column 14\n  |\n1 | secret_key = \"abc\n  |              ^\ninvalid basic string\n";
        assert_eq!(
            without_snippet(report),
            "TOML parse error at line 1, column 14; invalid basic string"
        );
    }

    #[test]
    fn display_prints_one_problem_per_line() {
        let mut errors = ConfigErrors::single("a.b", "required");
        errors.push("", "whole file broken");
        assert_eq!(errors.to_string(), "a.b: required\nwhole file broken");
    }
}
