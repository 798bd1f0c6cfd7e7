//! Every preset through the whole service (docs/providers.md#presets), enabled with client
//! id, secret and redirect URI alone (a per-tenant one with its issuer): listed by
//! `GET /auth/oauth/providers`, signing Ada in at its simulated provider, its claims mapped,
//! and its email-trust rule deciding what the address may do: a vouched-for address links
//! to the user who holds it (auto-linking on), one the provider cannot vouch for is refused
//! the held address, and a preset that reads no address makes a user without one.

use crate::helpers::*;
use serde_json::Value;
use social_login_provider_core::spec::{ProviderSpec, presets};

fn presets_and_auto_linking() -> Options {
    Options {
        auto_link_by_email: true,
        with_simulator: with_presets,
        ..Options::default()
    }
}

/// What `spec` says of addresses here: whether it reads one, and whether the provider
/// vouches. The simulator serves a per-tenant preset at an address of its own, never at the
/// preset's default issuer, so a preset trusted only there (GitLab) or only on the
/// operator's word (ZITADEL) vouches for nothing.
fn email_rule(spec: &ProviderSpec) -> (bool, bool) {
    let simulated_tenant = Some("http://127.0.0.1/a-tenant-of-the-simulator");
    let vouches = (spec.clone().trusting_emails_at(simulated_tenant)).may_vouch_for_an_address();
    (spec.reads_an_address(), vouches)
}

#[tokio::test]
async fn every_preset_is_listed_by_its_key_name_and_kind() {
    let app = spawn_app_with(presets_and_auto_linking()).await;
    let listed: Vec<Value> = app
        .get_json("/auth/oauth/providers", None)
        .await
        .as_array()
        .unwrap()
        .clone();
    for spec in presets() {
        let row = listed
            .iter()
            .find(|row| row["key"] == spec.key.as_str())
            .unwrap_or_else(|| panic!("{} is not listed", spec.key));
        assert_eq!(row["display_name"], spec.display_name.as_str());
        assert_eq!(row["kind"], spec.kind.as_str());
    }
    app.stop().await;
}

#[tokio::test]
async fn every_preset_signs_in_under_its_email_rule() {
    let app = spawn_app_with(presets_and_auto_linking()).await;
    // GitHub vouches for Ada's address: her user holds it.
    let owner = app.login_at("github", "583231").await;
    let owner_id = &owner["user"]["id"];
    for spec in presets() {
        let key = spec.key.as_str();
        let response = app.login_response_at(key, "583231").await;
        match email_rule(spec) {
            (true, true) => {
                let login = ok_json(response).await;
                assert_eq!(&login["user"]["id"], owner_id, "{key} links to the holder");
                assert_eq!(login["is_new_user"], false, "{key}");
            }
            (true, false) => {
                assert_problem_in(key, response, 409, "EmailAlreadyRegistered").await;
            }
            (false, _) => {
                let login = ok_json(response).await;
                assert_eq!(login["is_new_user"], true, "{key}");
                assert_eq!(login["user"]["email"], Value::Null, "{key}");
                // Her name, or where the provider has none to give her handle (Reddit).
                let name = &login["user"]["full_name"];
                assert!(
                    name == "Ada Lovelace" || name == "adalovelace",
                    "{key}: {name}"
                );
            }
        }
    }
    let linked = app.linked_providers(&token(&owner)).await;
    let vouching = presets()
        .iter()
        .filter(|spec| email_rule(spec) == (true, true));
    for spec in vouching {
        assert!(
            linked.contains(&spec.key.to_string()),
            "{} in {linked:?}",
            spec.key
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn an_address_the_provider_did_not_verify_links_nowhere_at_any_preset() {
    let app = spawn_app_with(presets_and_auto_linking()).await;
    let owner = app.login_at("github", "583231").await;
    // "unverified" has Ada's address, not verified at the provider: refused the held
    // address, or (where the preset reads none, or its emails list holds it back) a new user
    // whose address is not verified.
    for spec in presets() {
        let key = spec.key.as_str();
        let response = app.login_response_at(key, "1000002").await;
        if response.status() == 409 {
            assert_problem_in(key, response, 409, "EmailAlreadyRegistered").await;
            continue;
        }
        let login = ok_json(response).await;
        assert_eq!(login["is_new_user"], true, "{key}");
        assert_eq!(login["user"]["email_verified"], false, "{key}");
    }
    assert_eq!(app.linked_providers(&token(&owner)).await, ["github"]);
    app.stop().await;
}
