//! Validation of provider tables: the key, the kind, the fields of each kind, and what a
//! built-in table refuses. Every problem names its field.

use super::super::fixtures::minimal_toml;
use super::{TABLES, key};
use crate::settings::{ConfigErrors, Settings};
use social_login_domain::ProviderKind;

fn settings_with(tables: &str) -> Settings {
    Settings::from_toml(&format!("{}{tables}", minimal_toml())).unwrap()
}

/// The problems under `oauth_providers.<key>.`, as `field: message` lines without the prefix.
fn problems_of(settings: &Settings, key: &str) -> Vec<String> {
    let prefix = format!("oauth_providers.{key}.");
    let errors = settings.validate().err().unwrap_or_default();
    lines(&errors)
        .into_iter()
        .filter_map(|line| line.strip_prefix(&prefix).map(str::to_owned))
        .collect()
}

fn lines(errors: &ConfigErrors) -> Vec<String> {
    errors.problems().iter().map(ToString::to_string).collect()
}

/// A complete `kind` table named `key`, then `extra` lines inside it.
fn table(key: &str, kind: &str, extra: &str) -> String {
    let kind_fields = match kind {
        "oidc" => "issuer = \"https://id.example.com/\"\n",
        _ => {
            "scopes = [\"profile\"]\n[oauth_providers.KEY.endpoints]\n\
              authorization = \"https://id.example.com/authorize\"\n\
              token = \"https://id.example.com/token\"\n\
              userinfo = \"https://id.example.com/me\"\n"
        }
    };
    format!(
        "[oauth_providers.{key}]\nkind = \"{kind}\"\nclient_id = \"id\"\n\
         client_secret = \"secret\"\nredirect_uri = \"https://app.example.com/cb\"\n\
         {extra}\n{}",
        kind_fields.replace("KEY", key)
    )
}

/// A complete table has no problem at all: neither its rules nor its adapter find one.
fn no_problems(problems: &[String]) {
    assert_eq!(problems, [] as [String; 0], "{problems:?}");
}

#[test]
fn complete_tables_of_both_kinds_break_no_rule_of_their_own() {
    let settings = settings_with(TABLES);
    no_problems(&problems_of(&settings, "acme-sso"));
    no_problems(&problems_of(&settings, "corp"));
    for kind in ["oidc", "oauth2"] {
        let settings = settings_with(&table("minimal", kind, ""));
        no_problems(&problems_of(&settings, "minimal"));
    }
}

#[test]
fn a_key_outside_the_grammar_is_named_with_the_rule() {
    let settings = settings_with(&table("Acme_SSO", "oidc", ""));
    let errors = settings.validate().unwrap_err();
    assert_eq!(
        lines(&errors),
        [
            "oauth_providers.Acme_SSO: not a provider key: 2 to 32 characters, a lowercase letter \
          then lowercase letters, digits or '-'"
        ]
    );
    // Not listed, not enabled: nothing else reads it.
    assert_eq!(settings.enabled_providers().count(), 0);
}

#[test]
fn a_table_without_a_kind_needs_one_even_when_disabled() {
    let settings = settings_with("[oauth_providers.gitea]\nenabled = false\n");
    assert_eq!(
        problems_of(&settings, "gitea"),
        ["kind: required: \"oidc\" or \"oauth2\""]
    );
}

#[test]
fn an_oauth2_provider_needs_its_three_endpoints_and_its_scopes() {
    let settings = settings_with(
        "[oauth_providers.corp]\nkind = \"oauth2\"\nclient_id = \"id\"\n\
         client_secret = \"s\"\nredirect_uri = \"https://a.example/cb\"\n",
    );
    let problems = problems_of(&settings, "corp");
    for expected in [
        "endpoints.authorization: required for kind = \"oauth2\"",
        "endpoints.token: required for kind = \"oauth2\"",
        "endpoints.userinfo: required for kind = \"oauth2\"",
        "scopes: required for kind = \"oauth2\"",
    ] {
        assert!(problems.contains(&expected.to_owned()), "{problems:?}");
    }
    // An empty list is no better than none.
    let settings = settings_with(&table("corp", "oauth2", "").replace("[\"profile\"]", "[]"));
    assert!(
        problems_of(&settings, "corp").contains(&"scopes: required for kind = \"oauth2\"".into())
    );
}

#[test]
fn an_oidc_provider_needs_an_issuer_url_and_openid_among_its_scopes() {
    let missing = table("acme", "oidc", "").replace("issuer = \"https://id.example.com/\"\n", "");
    assert!(
        problems_of(&settings_with(&missing), "acme")
            .contains(&"issuer: required for kind = \"oidc\"".into())
    );
    let query = table("acme", "oidc", "").replace(".com/\"", ".com/?realm=x\"");
    let problems = problems_of(&settings_with(&query), "acme");
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("issuer: must be an http(s) URL")),
        "{problems:?}"
    );
    let scopes = table("acme", "oidc", "scopes = [\"email\", \"profile\"]");
    assert!(
        problems_of(&settings_with(&scopes), "acme")
            .contains(&"scopes: must contain \"openid\" for kind = \"oidc\"".into())
    );
}

#[test]
fn a_claim_that_is_not_a_json_pointer_is_named() {
    let extra = "[oauth_providers.corp.claims]\nsubject = \"/data/id\"\nemail = \"data.mail\"\n\
                 avatar_url = \"/a~2b\"";
    let tables = format!("{}{extra}\n", table("corp", "oauth2", ""));
    let problems = problems_of(&settings_with(&tables), "corp");
    let not = "not a JSON Pointer (or `token:` and one that names no token)";
    assert!(
        problems.contains(&format!("claims.email: {not}")),
        "{problems:?}"
    );
    assert!(problems.contains(&format!("claims.avatar_url: {not}")));
    assert!(!problems.iter().any(|p| p.starts_with("claims.subject")));
}

#[test]
fn a_display_name_is_1_to_64_characters_without_control_characters() {
    let rule = "display_name: 1 to 64 characters, no control characters".to_owned();
    for bad in ["   ", "Acme\\nSSO", &"A".repeat(65)] {
        let extra = format!("display_name = \"{bad}\"");
        let problems = problems_of(&settings_with(&table("acme", "oidc", &extra)), "acme");
        assert!(problems.contains(&rule), "{bad:?}: {problems:?}");
    }
    let extra = format!("display_name = \"{}\"", "Ä".repeat(64));
    let problems = problems_of(&settings_with(&table("acme", "oidc", &extra)), "acme");
    assert!(!problems.contains(&rule), "{problems:?}");
}

#[test]
fn each_kind_refuses_the_fields_of_the_other_and_of_built_ins() {
    let oauth2 = table(
        "corp",
        "oauth2",
        "issuer = \"https://id.example.com\"\nclient_ids = [\"ios\"]\nid_token_nonce = \"optional\"",
    ) + "jwks = \"https://id.example.com/jwks\"\nemails = \"https://id.example.com/emails\"\n\
         issuer = \"https://id.example.com\"\n";
    let problems = problems_of(&settings_with(&oauth2), "corp");
    let native = "only google, microsoft, apple and providers of kind = \"oidc\" (whose \
                  id_tokens are not signed with the client secret) accept id_tokens from apps";
    for expected in [
        "issuer: only for kind = \"oidc\"".to_owned(),
        "endpoints.jwks: only for kind = \"oidc\"".to_owned(),
        "endpoints.emails: an emails endpoint (endpoints.emails or emails.url) and an [emails] \
         table go together"
            .to_owned(),
        format!("client_ids: {native}"),
        format!("id_token_nonce: {native}"),
    ] {
        assert!(problems.contains(&expected), "{expected} in {problems:?}");
    }
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("endpoints.issuer: only for built-in")),
        "{problems:?}"
    );
}

#[test]
fn an_oidc_provider_accepts_app_client_ids_and_an_optional_nonce() {
    let settings = settings_with(TABLES);
    let acme = settings.provider(key("acme-sso")).unwrap();
    assert_eq!(acme.kind, Some(ProviderKind::Oidc));
    let problems = problems_of(&settings, "acme-sso");
    assert!(
        !problems
            .iter()
            .any(|p| p.starts_with("client_ids") || p.starts_with("id_token_nonce")),
        "{problems:?}"
    );
}

#[test]
fn a_built_in_table_refuses_every_field_of_providers_from_configuration() {
    let tables = "[oauth_providers.google]\nclient_id = \"id\"\nclient_secret = \"s\"\n\
                  redirect_uri = \"https://app.example.com/cb\"\nkind = \"oidc\"\n\
                  display_name = \"Gmail\"\nissuer = \"https://accounts.google.com\"\n\
                  token_endpoint_auth = \"client_secret_post\"\ntrust_email_verified = false\n\
                  [oauth_providers.google.claims]\nemail = \"/email\"\n";
    let settings = settings_with(tables);
    let problems = problems_of(&settings, "google");
    let fixed = "only for a provider from configuration: a built-in provider's is fixed";
    let expected: Vec<String> = [
        "kind",
        "display_name",
        "token_endpoint_auth",
        "trust_email_verified",
        "claims",
    ]
    .iter()
    .map(|field| format!("{field}: {fixed}"))
    .chain([
        "issuer: only for a provider from configuration: a built-in provider's expected issuer \
         is endpoints.issuer"
            .to_owned(),
    ])
    .collect();
    assert_eq!(problems, expected);
    // The same on a disabled table: these are not fields of a built-in provider at all.
    let disabled = tables.replace("kind = \"oidc\"\n", "kind = \"oidc\"\nenabled = false\n");
    assert_eq!(problems_of(&settings_with(&disabled), "google"), expected);
}

#[test]
fn a_disabled_generic_table_is_checked_for_shape_but_needs_nothing() {
    let tables = "[oauth_providers.corp]\nkind = \"oauth2\"\nenabled = false\n\
                  issuer = \"https://id.example.com\"\n";
    assert_eq!(
        problems_of(&settings_with(tables), "corp"),
        ["issuer: only for kind = \"oidc\""]
    );
}

#[test]
fn more_than_64_provider_tables_is_an_error() {
    let tables: String = (0..65)
        .map(|index| format!("[oauth_providers.p{index}]\nkind = \"oidc\"\nenabled = false\n"))
        .collect();
    let errors = settings_with(&tables).validate().unwrap_err();
    assert_eq!(lines(&errors), ["oauth_providers: at most 64 providers"]);
}

#[test]
fn an_email_verified_pointer_nobody_trusts_is_a_warning() {
    let settings = settings_with(TABLES);
    assert!(
        !settings
            .warnings()
            .iter()
            .any(|w| w.contains("claims.email_verified")),
        "corp trusts its claim"
    );
    let untrusted = TABLES.replace("trust_email_verified = true", "");
    let warnings = settings_with(&untrusted).warnings();
    assert!(
        warnings.iter().any(|w| w.starts_with(
            "oauth_providers.corp.claims.email_verified is not read while trust_email_verified \
             is false"
        )),
        "{warnings:?}"
    );
}

#[test]
fn problems_of_generic_tables_never_quote_their_values() {
    let tables = table(
        "corp",
        "oauth2",
        "issuer = \"https://leaky-issuer.example\"\ndisplay_name = \"\"",
    ) + "[oauth_providers.corp.claims]\nemail = \"leaky-pointer\"\n";
    let errors = settings_with(&tables).validate().unwrap_err();
    let text = errors.to_string();
    assert!(!text.contains("leaky"), "{text}");
}

/// The TOML blocks of the "Providers from configuration" section of docs/configuration.md
/// (its presets and knobs included).
fn documented_tables() -> Vec<String> {
    let docs = include_str!("../../../../../../docs/configuration.md");
    let section = docs
        .split("## Providers from configuration")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the section exists");
    section
        .split("```toml\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .map(|block| block.replace('…', "x"))
        .collect()
}

/// The commented generic tables at the end of examples/social-login.toml, uncommented.
fn example_tables() -> String {
    let example = include_str!("../../../../../../examples/social-login.toml");
    let tail = example
        .split("# Any OpenID Connect provider")
        .nth(1)
        .expect("the example has generic tables");
    tail.lines()
        .filter_map(|line| line.strip_prefix("# "))
        .filter(|line| {
            line.starts_with('[')
                || line
                    .split_once(" = ")
                    .is_some_and(|(k, _)| !k.contains(' '))
        })
        .map(|line| format!("{line}\n"))
        .collect()
}

#[test]
fn the_documented_and_example_tables_break_no_rule() {
    let blocks = documented_tables();
    assert_eq!(
        blocks.len(),
        6,
        "Okta, Keycloak, GitLab; the GitLab preset, a second GitLab, a table with knobs"
    );
    for block in blocks.iter().chain([&example_tables()]) {
        let settings = settings_with(block);
        let keys: Vec<String> = settings
            .enabled_providers()
            .map(|(key, _)| key.to_string())
            .collect();
        assert!(!keys.is_empty(), "{block}");
        for key in keys {
            no_problems(&problems_of(&settings, &key));
        }
    }
}

#[test]
fn plain_http_off_loopback_and_an_oidc_subject_other_than_sub_are_warnings() {
    let quiet = settings_with(TABLES).warnings();
    assert!(
        !quiet
            .iter()
            .any(|w| w.contains("plain http") || w.contains("claims.subject")),
        "{quiet:?}"
    );
    let risky = TABLES
        .replace(
            "issuer = \"https://sso.acme.example/realms/main/\"",
            "issuer = \"http://sso.acme.example/realms/main/\"",
        )
        .replace(
            "token = \"https://corp.example.com/oauth/token\"",
            "token = \"http://corp.example.com/oauth/token\"",
        )
        .replace(
            "userinfo = \"https://corp.example.com/api/me\"",
            "userinfo = \"http://127.0.0.1:8081/api/me\"",
        )
        + "\n[oauth_providers.acme-sso.claims]\nsubject = \"/preferred_username\"\n";
    let warnings = settings_with(&risky).warnings();
    let about = |needle: &str| warnings.iter().filter(|w| w.starts_with(needle)).count();
    assert_eq!(
        about("oauth_providers.acme-sso.issuer uses plain http"),
        1,
        "{warnings:?}"
    );
    assert_eq!(
        about("oauth_providers.corp.endpoints.token uses plain http"),
        1
    );
    assert_eq!(
        about("oauth_providers.corp.endpoints.userinfo"),
        0,
        "loopback is fine"
    );
    assert_eq!(
        about("oauth_providers.acme-sso.claims.subject is not \"/sub\""),
        1
    );
    assert_eq!(
        about("oauth_providers.corp.claims.subject"),
        0,
        "an OAuth 2.0 provider has no sub"
    );
}

#[test]
fn a_control_character_in_a_client_id_is_refused() {
    let evil = TABLES.replace(
        "client_ids = [\"com.acme.ios\"]",
        "client_ids = [\"com.acme\\u001bios\"]",
    );
    let errors = settings_with(&evil).validate().unwrap_err();
    assert!(
        lines(&errors)
            .iter()
            .any(|line| line.starts_with("oauth_providers.acme-sso.client_ids[0]")),
        "{errors}"
    );
}

#[test]
fn a_control_character_in_an_issuer_or_a_relay_base_url_is_refused() {
    // The URL parser drops a tab or a newline without a word.
    let evil = TABLES
        .replace(
            "issuer = \"https://sso.acme.example/realms/main/\"",
            "issuer = \"https://sso.acme.example/realms/\tmain/\"",
        )
        .replace(
            "client_secret = \"gh-secret\"\n",
            "client_secret = \"gh-secret\"\nrelay_base_urls = [\"https://api.github.com/\\nx/\"]\n",
        );
    let errors = settings_with(&evil).validate().unwrap_err();
    for field in [
        "oauth_providers.acme-sso.issuer",
        "oauth_providers.github.relay_base_urls[0]",
    ] {
        assert!(
            lines(&errors).iter().any(|line| line.starts_with(field)),
            "{field}: {errors}"
        );
    }
}

#[test]
fn an_emails_table_may_name_its_url_itself_but_not_beside_endpoints_emails() {
    let listed = TABLES.to_owned()
        + "\n[oauth_providers.corp.emails]\nurl = \"https://corp.example.com/api/emails\"\n\
           address = \"/email\"\nverified = \"/confirmed\"\n";
    let settings = settings_with(&listed);
    no_problems(&problems_of(&settings, "corp"));
    let corp = settings.oauth_providers.get(key("corp")).unwrap();
    assert_eq!(
        corp.adapter_settings().endpoints.emails.as_deref(),
        Some("https://corp.example.com/api/emails")
    );
    let both = listed.replace(
        "revocation = \"https://corp.example.com/oauth/revoke\"",
        "revocation = \"https://corp.example.com/oauth/revoke\"\nemails = \"https://corp.example.com/api/emails\"",
    );
    assert_names(&both, "corp", "emails.url");
}

#[test]
fn an_oidc_provider_whose_id_tokens_are_signed_with_the_secret_takes_no_app_client_ids() {
    let signed = TABLES.replace(
        "client_ids = [\"com.acme.ios\"]",
        "client_ids = [\"com.acme.ios\"]\nid_token_signing = \"client_secret\"",
    );
    // An app holding the secret could sign any token.
    assert_names(&signed, "acme-sso", "client_ids");
}

/// Asserts that validating `tables` names `field` of the provider `key`.
fn assert_names(tables: &str, key: &str, field: &str) {
    let problems = problems_of(&settings_with(tables), key);
    assert!(
        problems.iter().any(|p| p.starts_with(field)),
        "{field}: {problems:?}"
    );
}
