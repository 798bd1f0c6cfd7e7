//! `GET /auth/oauth/providers`: the enabled providers in configuration order, public (its
//! rate limit is checked with the other public endpoints', in `errors.rs`).

use crate::helpers::*;
use serde_json::Value;
use social_login::settings::Settings;
use social_login_domain::ProviderKey;

/// GitHub's table moved last and Discord's disabled.
fn reordered(settings: &mut Settings) {
    let github = settings.oauth_providers.remove(ProviderKey::GITHUB);
    settings
        .oauth_providers
        .insert(ProviderKey::GITHUB, github.expect("configured"));
    let discord = settings.oauth_providers.get_mut(ProviderKey::DISCORD);
    discord.expect("configured").enabled = false;
}

#[tokio::test]
async fn the_enabled_providers_are_listed_in_configuration_order_with_their_names() {
    let app = spawn_app_tuned(reordered).await;
    let response = app.get("/auth/oauth/providers", None).await;
    assert_eq!(response.status(), 200);
    let listed: Vec<Value> = response.json().await.unwrap();
    let rows: Vec<(&str, &str, &str, bool)> = listed
        .iter()
        .map(|row| {
            assert_eq!(row.as_object().unwrap().len(), 4, "{row}");
            (
                row["key"].as_str().unwrap(),
                row["display_name"].as_str().unwrap(),
                row["kind"].as_str().unwrap(),
                row["id_token"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("google", "Google", "oidc", true),
            ("facebook", "Facebook", "oauth2", false),
            ("microsoft", "Microsoft", "oidc", true),
            ("linkedin", "LinkedIn", "oidc", false),
            ("twitter", "X", "oauth2", false),
            ("apple", "Apple", "oidc", true),
            ("github", "GitHub", "oauth2", false),
        ]
    );
    app.stop().await;
}
