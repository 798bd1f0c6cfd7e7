//! What makes a declaration sound: checked on every built-in by its unit test, and on a
//! provider built from configuration before it is used.

use crate::ProviderKind;
use crate::spec::{ProviderSpec, is_json_pointer};

/// One thing wrong with a declaration: the field (`endpoints.token`) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecProblem {
    pub field: String,
    pub message: &'static str,
}

impl SpecProblem {
    fn new(field: impl Into<String>, message: &'static str) -> Self {
        Self {
            field: field.into(),
            message,
        }
    }
}

impl ProviderSpec {
    /// Every problem: blank names or scopes, URLs that are not http(s), pointers that are
    /// not JSON Pointers, an `oidc` kind without id_token rules and key set (or an `oauth2`
    /// one with them).
    pub fn problems(&self) -> Vec<SpecProblem> {
        let mut problems = Vec::new();
        if self.display_name.trim().is_empty() {
            problems.push(SpecProblem::new("display_name", "must not be blank"));
        }
        if self
            .scopes
            .iter()
            .any(|s| s.is_empty() || s.contains(char::is_whitespace))
        {
            problems.push(SpecProblem::new("scopes", "a scope is one non-empty word"));
        }
        let endpoints = &self.endpoints;
        let urls = [
            ("endpoints.authorization", Some(&endpoints.authorization)),
            ("endpoints.token", Some(&endpoints.token)),
            ("endpoints.userinfo", endpoints.userinfo.as_ref()),
            ("endpoints.emails", endpoints.emails.as_ref()),
            ("endpoints.jwks", endpoints.jwks.as_ref()),
            ("revocation.url", self.revocation.as_ref().map(|r| &r.url)),
        ];
        for (field, url) in urls {
            if url.is_some_and(|url| !is_http_url(url)) {
                problems.push(SpecProblem::new(field, "not an http(s) URL"));
            }
        }
        for (field, pointer) in self.claims.pointers() {
            if !is_json_pointer(pointer) {
                problems.push(SpecProblem::new(field, "not a JSON Pointer"));
            }
        }
        let oidc = self.kind == ProviderKind::Oidc;
        if oidc != self.id_token.is_some() {
            problems.push(SpecProblem::new(
                "id_token",
                "exactly the oidc kind has id_token rules",
            ));
        }
        if oidc != endpoints.jwks.is_some() {
            problems.push(SpecProblem::new(
                "endpoints.jwks",
                "exactly the oidc kind has a key set",
            ));
        }
        if self
            .id_token
            .as_ref()
            .is_some_and(|rules| rules.issuers.is_empty())
        {
            problems.push(SpecProblem::new("id_token.issuers", "at least one issuer"));
        }
        if self
            .id_token
            .as_ref()
            .is_some_and(|rules| rules.algorithms.is_empty())
        {
            problems.push(SpecProblem::new(
                "id_token.algorithms",
                "at least one algorithm",
            ));
        }
        problems
    }
}

/// `http://` or `https://` and a host: the declaration is data, not a parsed URL yet.
fn is_http_url(raw: &str) -> bool {
    ["https://", "http://"].iter().any(|scheme| {
        raw.strip_prefix(scheme)
            .is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::built_in::built_in_spec;
    use social_login_domain::ProviderKey;

    fn fields(spec: &ProviderSpec) -> Vec<String> {
        spec.problems().into_iter().map(|p| p.field).collect()
    }

    #[test]
    fn each_problem_names_its_field() {
        let mut spec = built_in_spec(ProviderKey::GOOGLE).unwrap().clone();
        spec.display_name = " ".into();
        spec.endpoints.token = "ftp://idp.example/token".into();
        spec.claims.name = vec!["name".into()];
        spec.id_token = None;
        assert_eq!(
            fields(&spec),
            [
                "display_name",
                "endpoints.token",
                "claims.name[0]",
                "id_token"
            ]
        );
    }

    #[test]
    fn an_oauth2_declaration_has_no_key_set() {
        let mut spec = built_in_spec(ProviderKey::GITHUB).unwrap().clone();
        spec.endpoints.jwks = Some("https://github.com/keys".into());
        assert_eq!(fields(&spec), ["endpoints.jwks"]);
    }
}
