//! What makes a declaration sound: checked on every built-in by its unit test, and on a
//! provider built from configuration before it is used.

use crate::ProviderKind;
use crate::header::{is_header_name, is_header_value};
use crate::knobs::IdTokenSigning;
use crate::spec::{ProviderSpec, is_claim_pointer, is_json_pointer};

/// What the operator may be asked to set in a declaration's `needs`.
pub const NEEDS: [&str; 2] = ["issuer", "domain"];

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
        if self.is_per_tenant() {
            // Its URLs are checked as they will be: with a tenant's values in place.
            let tenant = crate::Tenant {
                issuer: Some(self.issuer.as_deref().unwrap_or("https://tenant.example")),
                domain: Some("tenant.example"),
            };
            return self.clone().for_tenant(tenant).problems_as_given();
        }
        self.problems_as_given()
    }

    /// The problems of what an operator's table may set on any provider: pointers, the
    /// emails list, the parameter names, the relay's URLs, what is needed. (A provider from
    /// configuration of the `oidc` kind is checked this far before discovery completes it.)
    pub fn knob_problems(&self) -> Vec<SpecProblem> {
        let mut problems = Vec::new();
        for (index, url) in self.relay_base_urls.iter().enumerate() {
            if !is_http_url(url) || !url.ends_with('/') {
                let field = format!("relay_base_urls[{index}]");
                problems.push(SpecProblem::new(field, "an http(s) URL ending in `/`"));
            }
        }
        for (field, pointer) in self.claims.pointers() {
            if !is_claim_pointer(pointer) {
                problems.push(SpecProblem::new(
                    field,
                    "not a JSON Pointer (or `token:` and one that names no token)",
                ));
            }
        }
        if let Some(emails) = &self.emails {
            if self.endpoints.emails.is_none() {
                problems.push(SpecProblem::new(
                    "endpoints.emails",
                    "[emails] needs its URL",
                ));
            }
            for (field, pointer) in emails.pointers() {
                if !is_json_pointer(pointer) {
                    problems.push(SpecProblem::new(field, "not a JSON Pointer"));
                }
            }
        }
        for (field, value) in [
            ("client_id_param", &self.client_id_param),
            ("client_secret_param", &self.client_secret_param),
            ("scope_separator", &self.scope_separator),
        ] {
            if value.is_empty() || value.chars().any(char::is_control) {
                problems.push(SpecProblem::new(field, "must be non-empty text"));
            }
        }
        for need in &self.needs {
            if !NEEDS.contains(&need.as_str()) {
                problems.push(SpecProblem::new("needs", "only \"issuer\" and \"domain\""));
            }
        }
        let headers = [
            ("token_request.headers", &self.token_request.headers),
            ("userinfo.headers", &self.userinfo.headers),
        ];
        for (field, headers) in headers {
            let bad = |(name, value): (&String, &String)| {
                !is_header_name(name) || !is_header_value(value)
            };
            if headers.iter().any(bad) {
                let message = "each name a header name, each value visible ASCII";
                problems.push(SpecProblem::new(field, message));
            }
        }
        if self
            .user_agent
            .as_deref()
            .is_some_and(|agent| !is_header_value(agent))
        {
            problems.push(SpecProblem::new("user_agent", "visible ASCII"));
        }
        problems
    }

    fn problems_as_given(&self) -> Vec<SpecProblem> {
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
            ("endpoints.refresh", endpoints.refresh.as_ref()),
            ("revocation.url", self.revocation.as_ref().map(|r| &r.url)),
        ];
        for (field, url) in urls {
            if url.is_some_and(|url| !is_http_url(url)) {
                problems.push(SpecProblem::new(field, "not an http(s) URL"));
            }
        }
        problems.extend(self.knob_problems());
        let client_secret_signed = self.id_token_signing == IdTokenSigning::ClientSecret;
        let oidc = self.kind == ProviderKind::Oidc;
        if client_secret_signed && !oidc {
            problems.push(SpecProblem::new(
                "id_token_signing",
                "only an oidc provider signs id_tokens",
            ));
        }
        if oidc != self.id_token.is_some() {
            problems.push(SpecProblem::new(
                "id_token",
                "exactly the oidc kind has id_token rules",
            ));
        }
        // A provider that signs with its client secret publishes no key set for it.
        if oidc && !client_secret_signed && endpoints.jwks.is_none() {
            problems.push(SpecProblem::new(
                "endpoints.jwks",
                "an oidc provider needs its key set",
            ));
        }
        if !oidc && endpoints.jwks.is_some() {
            problems.push(SpecProblem::new(
                "endpoints.jwks",
                "only the oidc kind has a key set",
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
    fn headers_and_the_user_agent_must_be_ones_http_can_carry() {
        let mut spec = built_in_spec(ProviderKey::GITHUB).unwrap().clone();
        let fine = [
            ("Notion-Version", "2022-06-28"),
            ("Client-Id", "{client_id}"),
        ];
        for (name, value) in fine {
            spec.userinfo.headers.insert(name.into(), value.into());
        }
        spec.user_agent = Some("web:app:1.0 (by /u/ops)".into());
        assert_eq!(fields(&spec), Vec::<String>::new());
        spec.token_request
            .headers
            .insert("X Bad".into(), "1".into());
        spec.userinfo
            .headers
            .insert("X-Ok".into(), "caf\u{e9}".into());
        spec.user_agent = Some("agent\n".into());
        assert_eq!(
            fields(&spec),
            ["token_request.headers", "userinfo.headers", "user_agent"]
        );
    }

    #[test]
    fn an_oauth2_declaration_has_no_key_set() {
        let mut spec = built_in_spec(ProviderKey::GITHUB).unwrap().clone();
        spec.endpoints.jwks = Some("https://github.com/keys".into());
        assert_eq!(fields(&spec), ["endpoints.jwks"]);
    }
}
