//! Preset tables (docs/configuration.md, "Presets"): a preset is enabled by its name and the
//! client registration alone, a second instance under any key with `preset`, per-tenant
//! ones with their issuer (and Cognito's domain); its knobs and pointers may be replaced;
//! what does not belong, or is missing, is named.

use super::fixtures::minimal_toml;
use crate::settings::{Declared, Settings};
use social_login_domain::ProviderKey;
use social_login_provider_core::spec::knobs::TokenIn;
use social_login_provider_core::spec::{EmailVerified, ProviderSpec};

const CLIENT: &str = "client_id = \"id\"\nclient_secret = \"secret\"\nredirect_uri = \"https://app.example.com/cb\"\n";

fn settings_with(tables: &str) -> Result<Settings, String> {
    Settings::from_toml(&format!("{}{tables}", minimal_toml())).map_err(|errors| errors.to_string())
}

/// The problems validation finds, one per line.
fn problems(tables: &str) -> String {
    match settings_with(tables) {
        Ok(settings) => settings
            .validate()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        Err(errors) => errors,
    }
}

fn declared(tables: &str, key: &str) -> ProviderSpec {
    let settings = settings_with(tables).unwrap();
    settings.validate().unwrap();
    let key = ProviderKey::parse(key).unwrap();
    let config = settings.oauth_providers.get(key).unwrap();
    match config.declared(key) {
        Some(Declared::Preset(spec)) => spec,
        other => panic!("not a preset: {other:?}"),
    }
}

#[test]
fn a_preset_is_enabled_by_its_name_and_the_client_registration_alone() {
    let gitlab = declared(&format!("[oauth_providers.gitlab]\n{CLIENT}"), "gitlab");
    assert_eq!(gitlab.display_name, "GitLab");
    assert_eq!(gitlab.endpoints.token, "https://gitlab.com/oauth/token");
    assert_eq!(
        gitlab.claims.email_verified,
        EmailVerified::AllOf(vec!["/email_verified".into()])
    );
}

#[test]
fn a_second_instance_under_another_key_takes_its_own_issuer() {
    let tables = format!(
        "[oauth_providers.gitlab-corp]\npreset = \"gitlab\"\nissuer = \"https://git.corp.example/\"\n\
         display_name = \"Corp GitLab\"\n{CLIENT}"
    );
    let corp = declared(&tables, "gitlab-corp");
    assert_eq!(corp.key.as_str(), "gitlab-corp");
    assert_eq!(corp.display_name, "Corp GitLab");
    assert_eq!(
        corp.endpoints.authorization,
        "https://git.corp.example/oauth/authorize"
    );
    assert_eq!(
        corp.id_token.unwrap().issuers,
        ["https://git.corp.example"],
        "the trailing slash of the setting is not the provider's"
    );
}

#[test]
fn a_per_tenant_preset_without_its_tenant_is_named() {
    let okta = problems(&format!("[oauth_providers.okta]\n{CLIENT}"));
    assert_eq!(
        okta,
        "oauth_providers.okta.issuer: required for the okta preset"
    );
    let cognito = problems(&format!(
        "[oauth_providers.cognito]\nissuer = \"https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc\"\n{CLIENT}"
    ));
    assert_eq!(
        cognito,
        "oauth_providers.cognito.domain: required for the cognito preset"
    );
    let pool = declared(
        &format!(
            "[oauth_providers.cognito]\nissuer = \"https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc\"\n\
             domain = \"corp.auth.eu-west-1.amazoncognito.com\"\n{CLIENT}"
        ),
        "cognito",
    );
    assert_eq!(
        pool.endpoints.token,
        "https://corp.auth.eu-west-1.amazoncognito.com/oauth2/token"
    );
    assert_eq!(
        pool.endpoints.jwks.as_deref(),
        Some("https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc/.well-known/jwks.json")
    );
}

#[test]
fn what_does_not_belong_to_a_preset_is_named() {
    let unknown = problems(&format!(
        "[oauth_providers.corp]\npreset = \"nope\"\n{CLIENT}"
    ));
    assert_eq!(
        unknown,
        "oauth_providers.corp.preset: no such preset; `social-login providers` lists them"
    );
    for (lines, named) in [
        (
            "kind = \"oauth2\"\npreset = \"spotify\"\n",
            "oauth_providers.spotify.kind: not with a preset",
        ),
        (
            "issuer = \"https://x.example\"\n",
            "the spotify preset is not per tenant",
        ),
        (
            "trust_email_verified = true\n",
            "oauth_providers.spotify.trust_email_verified",
        ),
    ] {
        spotify_names(lines, named);
    }
}

/// Asserts that the problems of a `spotify` table with `lines` after its client
/// registration include `named`.
fn spotify_names(lines: &str, named: &str) {
    let found = problems(&format!("[oauth_providers.spotify]\n{CLIENT}{lines}"));
    assert!(found.contains(named), "{found}");
}

#[test]
fn a_knob_or_a_pointer_may_replace_the_presets_own() {
    let tables = format!(
        "[oauth_providers.reddit]\nuser_agent = \"web:acme:1.0 (by /u/acme)\"\n{CLIENT}\
         [oauth_providers.reddit.userinfo]\ntoken_in = \"query:access_token\"\n\
         [oauth_providers.reddit.claims]\nname = \"/subreddit/title\"\n"
    );
    let reddit = declared(&tables, "reddit");
    assert_eq!(
        reddit.user_agent.as_deref(),
        Some("web:acme:1.0 (by /u/acme)")
    );
    assert_eq!(
        reddit.userinfo.token_in,
        TokenIn::Query("access_token".into())
    );
    assert_eq!(reddit.claims.name, ["/subreddit/title"]);
}

#[test]
fn an_unknown_knob_a_bad_token_in_and_a_malformed_pointer_are_named() {
    spotify_names(
        "scope_seperator = \",\"\n",
        "oauth_providers.spotify.scope_seperator: unknown key",
    );
    let userinfo = "[oauth_providers.spotify.userinfo]\ntoken_in = \"cookie:x\"\n";
    spotify_names(userinfo, "oauth_providers.spotify.userinfo.token_in");
    spotify_names(userinfo, "\"query:<name>\"");
    spotify_names(
        "[oauth_providers.spotify.claims]\nemail = \"token:/access_token\"\n",
        "oauth_providers.spotify.claims.email: not a JSON Pointer",
    );
}

#[test]
fn a_built_in_table_turns_no_knob() {
    let github = problems(&format!(
        "[oauth_providers.github]\nscope_separator = \",\"\n{CLIENT}"
    ));
    assert!(
        github.contains("oauth_providers.github.knobs: only for a preset"),
        "{github}"
    );
}

#[test]
fn a_preset_tables_client_registration_and_overrides_are_checked_like_any_providers() {
    let found = problems(
        "[oauth_providers.slack]\nclient_id = \"id\"\nclient_secret = \"\"\n\
         redirect_uri = \"not a url\"\nendpoints = { token = \"ftp://slack.example/token\" }\n",
    );
    for field in ["client_secret", "redirect_uri", "endpoints.token"] {
        assert!(
            found.contains(&format!("oauth_providers.slack.{field}")),
            "{found}"
        );
    }
}

#[test]
fn a_header_or_user_agent_http_cannot_carry_is_a_configuration_error() {
    let found = problems(&format!(
        "[oauth_providers.reddit]\n{CLIENT}user_agent = \"agent\\u007f\"\n\
         [oauth_providers.reddit.userinfo]\nheaders = {{ \"X Bad\" = \"1\" }}\n"
    ));
    for field in ["user_agent", "userinfo.headers"] {
        assert!(
            found.contains(&format!("oauth_providers.reddit.{field}")),
            "{field}: {found}"
        );
    }
}

/// The warnings of valid `tables`, one per entry.
fn warnings(tables: &str) -> Vec<String> {
    let settings = settings_with(tables).unwrap();
    settings.validate().unwrap();
    settings.warnings()
}

#[test]
fn warnings_about_pkce_and_email_domains_follow_the_presets_declaration() {
    let about = |warnings: Vec<String>, what: &str| warnings.iter().any(|w| w.contains(what));
    // Vercel requires PKCE: turning it off is ignored.
    let vercel = warnings(&format!("[oauth_providers.vercel]\npkce = false\n{CLIENT}"));
    assert!(about(vercel, "Vercel requires PKCE"));
    // Slack's declaration sends none: nothing to warn about.
    let slack = warnings(&format!("[oauth_providers.slack]\npkce = false\n{CLIENT}"));
    assert!(!about(slack, "pkce"), "no PKCE to turn off");
    // GitLab vouches for its addresses; Spotify never does.
    let domains = "allowed_email_domains = [\"example.com\"]\n";
    let gitlab = warnings(&format!("[oauth_providers.gitlab]\n{domains}{CLIENT}"));
    assert!(!about(gitlab, "allowed_email_domains"));
    let spotify = warnings(&format!("[oauth_providers.spotify]\n{domains}{CLIENT}"));
    assert!(about(spotify, "counts as unverified"));
}

#[test]
fn a_subject_other_than_sub_is_a_warning_on_an_openid_preset_and_not_on_an_oauth_one() {
    let subject =
        |pointer: &str| format!("[oauth_providers.PRESET.claims]\nsubject = \"{pointer}\"\n");
    let table = |preset: &str, pointer: &str| {
        format!("[oauth_providers.{preset}]\n{CLIENT}{}", subject(pointer))
            .replace("PRESET", preset)
    };
    let about = |warnings: Vec<String>| warnings.iter().any(|w| w.contains("claims.subject"));
    // GitLab speaks OpenID Connect: its `email` is the user's to choose.
    assert!(about(warnings(&table("gitlab", "/email"))));
    assert!(!about(warnings(&table("gitlab", "/sub"))));
    // Spotify is OAuth 2.0: no `sub` to prefer.
    assert!(!about(warnings(&table("spotify", "/id"))));
}

#[test]
fn a_table_that_replaces_a_presets_own_userinfo_is_a_warning() {
    let about = |warnings: Vec<String>| warnings.iter().any(|w| w.contains("replaces the Amazon"));
    let headers = "[oauth_providers.amazon.userinfo]\nheaders = { \"X-Trace\" = \"1\" }\n";
    // Amazon's own userinfo takes the token in `x-amz-access-token`: replaced, it would not.
    assert!(about(warnings(&format!(
        "[oauth_providers.amazon]\n{CLIENT}{headers}"
    ))));
    assert!(!about(warnings(&format!(
        "[oauth_providers.amazon]\n{CLIENT}"
    ))));
}

#[test]
fn a_map_or_list_that_drops_part_of_a_presets_own_is_a_warning() {
    let about = |toml: &str, knob: &str| {
        let table = format!("[oauth_providers.reddit]\n{CLIENT}{toml}");
        let needle = format!("reddit.{knob} replaces the Reddit preset's");
        warnings(&table).iter().any(|w| w.contains(&needle))
    };
    // Reddit's own `duration = "permanent"` is what makes it issue a refresh token.
    let (params, bases) = ("authorization_params", "relay_base_urls");
    let cases = [
        (
            params,
            "{ prompt = \"consent\" }",
            "{ duration = \"permanent\", prompt = \"consent\" }",
        ),
        (
            bases,
            "[\"https://proxy.example/\"]",
            "[\"https://oauth.reddit.com/\", \"https://proxy.example/\"]",
        ),
    ];
    for (knob, dropping, keeping) in cases {
        assert!(about(&format!("{knob} = {dropping}\n"), knob), "{dropping}");
        assert!(!about(&format!("{knob} = {keeping}\n"), knob), "{keeping}");
    }
    assert!(!about("", params) && !about("", bases));
}

#[test]
fn a_token_endpoint_moved_without_the_refresh_endpoint_beside_it_is_a_warning() {
    let about =
        |warnings: Vec<String>| warnings.iter().any(|w| w.contains("set endpoints.refresh"));
    let moved = "[oauth_providers.wechat.endpoints]\ntoken = \"https://proxy.example/token\"\n";
    let both = format!("{moved}refresh = \"https://proxy.example/refresh\"\n");
    let table = |endpoints: &str| format!("[oauth_providers.wechat]\n{CLIENT}{endpoints}");
    // WeChat refreshes at an endpoint of its own: moving the token endpoint leaves it behind.
    assert!(about(warnings(&table(moved))));
    assert!(!about(warnings(&table(&both))));
    assert!(!about(warnings(&table(""))));
    // GitLab refreshes at its token endpoint.
    let gitlab = "[oauth_providers.gitlab.endpoints]\ntoken = \"https://proxy.example/token\"\n";
    assert!(!about(warnings(&format!(
        "[oauth_providers.gitlab]\n{CLIENT}{gitlab}"
    ))));
}

#[test]
fn a_tenant_whose_flag_means_nothing_by_default_vouches_only_on_the_operators_word() {
    let flag = |tables: &str, key: &str| declared(tables, key).claims.email_verified;
    let vouching = EmailVerified::AllOf(vec!["/email_verified".into()]);
    let gitlab = |extra: &str| format!("[oauth_providers.gitlab]\n{CLIENT}{extra}");
    let own_flag = "[oauth_providers.gitlab.claims]\nemail_verified = \"/email_verified\"\n";
    // gitlab.com confirms every address; a self-managed instance by default confirms none.
    assert_eq!(flag(&gitlab(""), "gitlab"), vouching);
    assert_eq!(
        flag(&gitlab("issuer = \"https://gitlab.com/\"\n"), "gitlab"),
        vouching
    );
    let self_managed = "issuer = \"https://git.example.com\"\n";
    assert_eq!(flag(&gitlab(self_managed), "gitlab"), EmailVerified::Never);
    let trusted = gitlab(&format!("{self_managed}{own_flag}"));
    assert_eq!(flag(&trusted, "gitlab"), vouching);
    // ZITADEL's flag is whatever an administrator of any organization on it set.
    let zitadel =
        format!("[oauth_providers.zitadel]\n{CLIENT}issuer = \"https://id.example.com\"\n");
    assert_eq!(flag(&zitadel, "zitadel"), EmailVerified::Never);
    let about = |tables: &str| {
        warnings(tables)
            .iter()
            .any(|w| w.contains("counts as verified"))
    };
    assert!(about(&gitlab(self_managed)) && about(&zitadel));
    assert!(!about(&gitlab("")) && !about(&trusted));
}

#[test]
fn an_email_pointer_of_the_operators_own_is_not_vouched_for_by_the_presets_flag() {
    let pointer = "[oauth_providers.gitlab.claims]\nemail = \"/preferred_username\"\n";
    let tables = format!("[oauth_providers.gitlab]\n{CLIENT}{pointer}");
    assert_eq!(
        declared(&tables, "gitlab").claims.email_verified,
        EmailVerified::Never
    );
    assert!(
        warnings(&tables)
            .iter()
            .any(|w| w.contains("claims.email is the operator's own"))
    );
    let flagged = format!("{tables}email_verified = \"/email_verified\"\n");
    let claims = declared(&flagged, "gitlab").claims;
    assert_eq!(
        claims.email_verified,
        EmailVerified::AllOf(vec!["/email_verified".into()])
    );
    assert!(
        !warnings(&flagged)
            .iter()
            .any(|w| w.contains("claims.email is"))
    );
}

#[test]
fn a_per_tenant_presets_api_base_is_compared_as_its_tenant_has_it() {
    let about = |bases: &str| {
        let table = format!(
            "[oauth_providers.gitlab]\n{CLIENT}issuer = \"https://git.example.com\"\n\
             relay_base_urls = {bases}\n"
        );
        (warnings(&table).iter()).any(|w| w.contains("relay_base_urls replaces"))
    };
    // GitLab's own base is `{issuer}/api/v4/`: this tenant's, repeated, drops nothing.
    assert!(!about(
        "[\"https://git.example.com/api/v4/\", \"https://proxy.example/\"]"
    ));
    assert!(about("[\"https://proxy.example/\"]"));
}

#[test]
fn scopes_that_replace_an_id_token_providers_own_must_keep_openid() {
    let with_scopes = |table: &str, scopes: &str| {
        problems(&format!(
            "[oauth_providers.{table}]\n{CLIENT}scopes = [{scopes}]\n"
        ))
    };
    for table in ["google", "gitlab"] {
        let dropped = with_scopes(table, "\"email\", \"profile\"");
        assert!(
            dropped.contains(&format!(
                "oauth_providers.{table}.scopes: must contain \"openid\""
            )),
            "{table}: {dropped}"
        );
        let kept = with_scopes(table, "\"openid\", \"email\"");
        assert!(!kept.contains("scopes"), "{table}: {kept}");
    }
    // Apple sends its id_token whatever the scopes; GitHub has none.
    assert!(!with_scopes("apple", "\"name\", \"email\"").contains("openid"));
    assert!(!with_scopes("github", "\"read:user\"").contains("openid"));
}
