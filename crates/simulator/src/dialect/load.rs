//! Reading `dialects.toml`: a row naming a `base` takes from that row whatever it does not
//! set, so a preset costs only what sets it apart from the standards.

use super::Dialect;
use std::collections::BTreeMap;
use toml::{Table, Value};

/// Members a row replaces whole rather than merges: where a provider's endpoints are, and
/// what its token endpoint answers (a base's refresh token or id_token must not leak in).
const WHOLE: [&str; 2] = ["paths", "answer"];

/// Every dialect of `text`, each row merged over its base.
pub fn dialects(text: &str) -> Result<BTreeMap<String, Dialect>, String> {
    let rows: Table = toml::from_str(text).map_err(|error| error.to_string())?;
    rows.iter()
        .map(|(name, row)| {
            let merged = merged(&rows, name, row, 0)?;
            let dialect = Value::Table(merged)
                .try_into()
                .map_err(|error| format!("[{name}]: {error}"))?;
            Ok((name.clone(), dialect))
        })
        .collect()
}

/// `row` over its base (and that one's base), without the `base` key.
fn merged(rows: &Table, name: &str, row: &Value, depth: usize) -> Result<Table, String> {
    let Value::Table(row) = row else {
        return Err(format!("[{name}] is not a table"));
    };
    let mut row = row.clone();
    let Some(base) = row.remove("base") else {
        return Ok(row);
    };
    let base_name = base
        .as_str()
        .ok_or(format!("[{name}] base is not a name"))?;
    let base_row = rows
        .get(base_name)
        .filter(|_| depth < 4)
        .ok_or(format!("[{name}] has no base {base_name:?}"))?;
    let mut base = merged(rows, base_name, base_row, depth + 1)?;
    over(&mut base, row);
    Ok(base)
}

/// Lays `row` over `base`: tables merge member by member, anything else is replaced.
fn over(base: &mut Table, row: Table) {
    for (key, value) in row {
        match (base.get_mut(&key), value) {
            (Some(Value::Table(below)), Value::Table(above)) if !WHOLE.contains(&key.as_str()) => {
                over(below, above);
            }
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_takes_what_it_does_not_set_from_its_base_and_replaces_paths_and_answers_whole() {
        let text = r#"
            [std]
            paths = { authorization = "/a", token = "/t", revocation = "/r" }
            envelope = "rfc6749"
            [std.authorize]
            unknown_client = { status = 400, body = "unknown", outcome = "unknown_client" }
            unregistered_redirect = { status = 400, body = "bad", outcome = "bad_redirect" }
            scopes = { required = true }
            deny = "access_denied"
            [std.token]
            client_auth = { methods = ["client_secret_basic"] }
            answer = { access_prefix = "std_", token_type = "Bearer", refresh = { prefix = "r_" } }
            [std.token.errors]
            not_form = { error = "invalid_request" }
            unsupported_grant_type = { error = "unsupported_grant_type" }
            bad_client = { status = 401, error = "invalid_client" }
            missing_code = { error = "invalid_request" }
            bad_code = { error = "invalid_grant" }
            redirect_mismatch = { error = "invalid_grant" }
            verifier.bad = { error = "invalid_grant" }

            [mine]
            base = "std"
            paths = { authorization = "/mine/a", token = "/mine/t" }
            [mine.token]
            answer = { token_type = "bearer" }
            [mine.token.errors]
            bad_code = { error = "expired" }
        "#;
        let dialects = dialects(text).unwrap();
        let mine = &dialects["mine"];
        assert_eq!(mine.paths.authorization, "/mine/a");
        assert_eq!(mine.paths.revocation, None, "paths are replaced whole");
        assert!(mine.token.answer.refresh.is_none(), "so is the answer");
        assert_eq!(mine.token.errors.bad_code.error, "expired");
        assert_eq!(mine.token.errors.bad_client.status, 401, "merged below");
        assert_eq!(mine.authorize.deny, "access_denied");
        assert!(dialects["std"].token.answer.refresh.is_some());
    }

    #[test]
    fn an_unknown_base_names_the_row() {
        let error = dialects("[mine]\nbase = \"nothing\"\n").err().unwrap();
        assert!(error.contains("[mine] has no base"), "{error}");
    }
}
