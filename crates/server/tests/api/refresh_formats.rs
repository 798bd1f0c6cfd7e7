//! Refresh tokens across an upgrade and a key rotation (docs/api.md#refresh-tokens): a token
//! of the earlier format (32 random bytes alone, stored as the SHA-256 of its text) and a
//! token made under a key that was since dropped both keep their session going, and their
//! replay still ends it.

use crate::helpers::*;
use sea_orm::Statement;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use social_login::settings::Settings;

/// A refresh token as the service issued them before they carried their session: 32 random
/// bytes, base64url.
const EARLIER_TOKEN: &str = "q3vP0xJ8mZbT5yWc1nL7aRkD2sF9hGeU4iOoQpXtV6w";

/// Another output of `social-login gen-secret`.
const NEXT_SECRET_KEY: &str = "ieFuJ8itygrGs4-vu-V93oWjW_RFcfYMV8rOKKyLN7WubOw-j_DWdcrLKpdYneI9";

/// Stores `token` in the app's only session as a token of the earlier format, as a database
/// written before the upgrade holds it.
async fn store_earlier_token(app: &TestApp, token: &str) {
    let hash: [u8; 32] = Sha256::digest(token.as_bytes()).into();
    let stored = app
        .write_behind(|backend| {
            Statement::from_sql_and_values(
                backend,
                "INSERT INTO refresh_tokens \
                 (token_hash, user_id, family_id, created_at, expires_at, used) \
                 SELECT $1, user_id, family_id, created_at, expires_at, used FROM refresh_tokens",
                [hash.to_vec().into()],
            )
        })
        .await;
    assert_eq!(stored, 1, "one session to put it in");
}

/// Refreshes with `presented`, then presents it again: the replay ends the session, the
/// successor included.
async fn assert_rotates_once_then_its_replay_ends_the_session(app: &TestApp, presented: &Value) {
    let rotated = ok_json(app.refresh(presented).await).await;
    let successor = &rotated["refresh_token"];
    assert_eq!(successor.as_str().map(str::len), Some(102), "{successor}");
    app.assert_refresh_refused(presented).await;
    app.assert_refresh_refused(successor).await;
}

#[tokio::test]
async fn a_refresh_token_of_the_earlier_format_rotates_and_its_replay_still_ends_the_session() {
    assert_eq!(EARLIER_TOKEN.len(), 43);
    let app = spawn_app().await;
    let registered = app.register("pat@example.com").await;
    store_earlier_token(&app, EARLIER_TOKEN).await;
    assert_rotates_once_then_its_replay_ends_the_session(&app, &json!(EARLIER_TOKEN)).await;
    app.assert_refresh_refused(&registered["refresh_token"])
        .await;
    app.stop().await;
}

#[tokio::test]
async fn a_refresh_token_made_under_a_dropped_key_rotates_and_its_replay_still_ends_the_session() {
    let mut app = spawn_app().await;
    let registered = app.register("pat@example.com").await;
    app.restart_with(|settings| {
        settings.secret_key = Settings::with_secret_key(NEXT_SECRET_KEY).secret_key;
        settings.previous_secret_keys.clear();
    })
    .await;
    assert_rotates_once_then_its_replay_ends_the_session(&app, &registered["refresh_token"]).await;
    app.stop().await;
}
