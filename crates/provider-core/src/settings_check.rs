//! What `check-config` asks of an adapter: every problem of its settings at once, each
//! naming its field and never quoting a value (it may be a secret).
//!
//! The rules follow from the provider's declaration (which endpoints it has, whether it
//! signs its own client secret); Apple checks its signing key on top.

use crate::settings::ProviderSettings;
use social_login_provider_spec::{ProviderSpec, TokenAuth};
use url::Url;

/// Where a problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemField {
    /// Inside the provider's own table: `client_id`, `scopes[1]`, `endpoints.emails`.
    Provider(String),
    /// A setting of the service outside the provider's table (Apple's `apple_team_id`).
    Service(&'static str),
}

/// One thing wrong with an adapter's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsProblem {
    pub field: ProblemField,
    pub message: String,
}

impl SettingsProblem {
    pub fn provider(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: ProblemField::Provider(field.into()),
            message: message.into(),
        }
    }

    pub fn service(field: &'static str, message: impl Into<String>) -> Self {
        Self {
            field: ProblemField::Service(field),
            message: message.into(),
        }
    }
}

const REQUIRED: &str = "required for an enabled provider";
/// What a value with a control character is told.
pub const NO_CONTROL: &str = "must not contain control characters (a newline, a tab, an escape)";

/// Every problem of `settings` for the provider `spec` declares: client id, a static client
/// secret unless the provider signs one per request, redirect URI, scopes, and endpoint
/// overrides, each only where the provider has that endpoint.
pub fn problems(spec: &ProviderSpec, settings: &ProviderSettings) -> Vec<SettingsProblem> {
    let mut problems = Vec::new();
    if settings.client_id.trim().is_empty() {
        problems.push(SettingsProblem::provider("client_id", REQUIRED));
    } else if settings.client_id.chars().any(char::is_control) {
        // It is printed into URLs, headers and `risc-registration`'s shell script.
        problems.push(SettingsProblem::provider("client_id", NO_CONTROL));
    }
    let signed = spec.token_auth == TokenAuth::SignedSecretPost;
    if !signed && settings.client_secret.expose().trim().is_empty() {
        problems.push(SettingsProblem::provider("client_secret", REQUIRED));
    }
    check_url(&mut problems, "redirect_uri", &settings.redirect_uri);
    // RFC 6749 §3.1.2: the redirection endpoint URI must not include a fragment.
    if Url::parse(&settings.redirect_uri).is_ok_and(|url| url.fragment().is_some()) {
        problems.push(SettingsProblem::provider(
            "redirect_uri",
            "must not contain a #fragment",
        ));
    }
    for (index, scope) in settings.scopes.iter().flatten().enumerate() {
        // RFC 6749 §3.3: scope tokens are space-delimited, so one cannot hold whitespace.
        if scope.is_empty() || scope.chars().any(char::is_whitespace) {
            problems.push(SettingsProblem::provider(
                format!("scopes[{index}]"),
                "a scope must be non-empty and contain no whitespace",
            ));
        }
    }
    for (name, value) in settings.endpoints.iter() {
        let field = format!("endpoints.{name}");
        // One configured where the provider has none would never be called.
        let missing = match name {
            "emails" => spec.endpoints.emails.is_none(),
            "refresh" => spec.endpoints.refresh.is_none(),
            "revocation" => spec.revocation.is_none(),
            _ => false,
        };
        if missing {
            let message = format!("{} has no {name} endpoint", spec.key);
            problems.push(SettingsProblem::provider(field, message));
        } else {
            // The issuer too: a URL even as microsoft's `…/{tenantid}/v2.0` template.
            check_url(&mut problems, &field, value);
        }
    }
    problems
}

/// A required absolute `http(s)` URL. Never echoes the URL.
fn check_url(problems: &mut Vec<SettingsProblem>, field: &str, value: &str) {
    if let Some(message) = url_problem(value, &["https", "http"]) {
        problems.push(SettingsProblem::provider(field, message));
    }
}

/// What is wrong with `value` as a required absolute URL with one of `schemes`, if
/// anything. Never echoes the URL: it may hold a password.
pub fn url_problem(value: &str, schemes: &[&str]) -> Option<String> {
    if value.trim().is_empty() {
        return Some("required".to_owned());
    }
    if value.chars().any(char::is_control) {
        // The URL parser drops tabs and newlines silently: refuse them instead.
        return Some(NO_CONTROL.to_owned());
    }
    match Url::parse(value) {
        Err(reason) => Some(format!("not a valid URL ({reason})")),
        Ok(url) if !schemes.contains(&url.scheme()) => {
            Some(format!("URL scheme must be one of: {}", schemes.join(", ")))
        }
        Ok(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use social_login_domain::{ProviderKey, SecretText};
    use social_login_provider_spec::built_in_spec;

    fn settings() -> ProviderSettings {
        crate::settings::test_settings()
    }

    fn fields(problems: &[SettingsProblem]) -> Vec<String> {
        problems
            .iter()
            .map(|problem| match &problem.field {
                ProblemField::Provider(field) => field.clone(),
                ProblemField::Service(field) => (*field).to_owned(),
            })
            .collect()
    }

    fn spec(key: ProviderKey) -> &'static ProviderSpec {
        built_in_spec(key).unwrap()
    }

    #[test]
    fn good_settings_have_no_problem() {
        assert_eq!(problems(spec(ProviderKey::DISCORD), &settings()), []);
    }

    #[test]
    fn every_problem_is_reported_naming_its_field() {
        let mut bad = settings();
        bad.client_id = " ".into();
        bad.client_secret = SecretText::new("");
        bad.redirect_uri = "https://app/cb#zq-anchor".into();
        bad.scopes = Some(vec!["ok".into(), "two words".into(), String::new()]);
        bad.endpoints.token = Some("ftp://x/token".into());
        bad.endpoints.userinfo = Some("not a url".into());
        bad.endpoints.emails = Some("https://x/e".into());
        bad.endpoints.revocation = Some("javascript:alert(1)".into());
        let problems = problems(spec(ProviderKey::DISCORD), &bad);
        assert_eq!(
            fields(&problems),
            [
                "client_id",
                "client_secret",
                "redirect_uri",
                "scopes[1]",
                "scopes[2]",
                "endpoints.token",
                "endpoints.userinfo",
                "endpoints.emails",
                "endpoints.revocation"
            ]
        );
        let text = format!("{problems:?}");
        for value in ["ftp://x", "not a url", "two words", "zq-anchor", "alert"] {
            assert!(!text.contains(value), "{value} quoted in {text}");
        }
    }

    #[test]
    fn a_control_character_in_a_client_id_or_a_url_is_refused() {
        for evil in ["a\nb", "a\tb", "a\u{1b}[31mb", "a\rb", "a\u{0}b"] {
            let mut bad = settings();
            bad.client_id = format!("client{evil}");
            bad.redirect_uri = format!("https://app.example/cb{evil}");
            bad.endpoints.token = Some(format!("https://idp.example/{evil}token"));
            let found = problems(spec(ProviderKey::DISCORD), &bad);
            assert_eq!(
                fields(&found),
                ["client_id", "redirect_uri", "endpoints.token"],
                "{evil:?}"
            );
            assert!(found.iter().all(|problem| problem.message == NO_CONTROL));
        }
    }

    #[test]
    fn the_declaration_says_which_endpoints_and_whether_a_secret_belong() {
        let mut bad = settings();
        bad.client_secret = SecretText::new("");
        bad.endpoints.emails = Some("https://x/e".into());
        bad.endpoints.revocation = Some("https://x/revoke".into());
        let github = problems(spec(ProviderKey::GITHUB), &bad);
        assert_eq!(fields(&github), ["client_secret"]);
        let microsoft = problems(spec(ProviderKey::MICROSOFT), &bad);
        assert_eq!(
            fields(&microsoft),
            ["client_secret", "endpoints.emails", "endpoints.revocation"]
        );
        assert_eq!(microsoft[2].message, "microsoft has no revocation endpoint");
        let mut refreshed_apart = settings();
        refreshed_apart.endpoints.refresh = Some("https://x/refresh".into());
        assert_eq!(
            fields(&problems(spec(ProviderKey::GITHUB), &refreshed_apart)),
            ["endpoints.refresh"],
            "GitHub refreshes at its token endpoint"
        );
        assert_eq!(
            fields(&problems(spec(ProviderKey::APPLE), &bad)),
            ["endpoints.emails"]
        );

        let mut github_like = settings();
        github_like.endpoints.emails = Some("not a url".into());
        let github = problems(spec(ProviderKey::GITHUB), &github_like);
        assert_eq!(github.len(), 1);
        assert!(github[0].message.starts_with("not a valid URL"));
    }
}
