//! The controls over the tokens behind the API, through the handle and `/_control`: expire
//! every access token, revoke every grant, rotate refresh tokens, slow the refresh grant,
//! count refresh grants; and the refresh grant at every provider that issues refresh tokens.

use super::{get, member, refresh};
use crate::support::fixtures::{ALL, MICROSOFT, OAUTH2, OIDC, start};
use crate::support::{SimClient, http, refusal};
use serde_json::{Value, json};
use social_login_simulator::{Provider, SimulatorHandle, TokenKind};
use std::time::{Duration, Instant};

/// A fresh code exchange of the standard OAuth 2.0 provider (a refresh token every time).
async fn oauth2_tokens(sim: &SimulatorHandle) -> Value {
    OAUTH2.client(sim).tokens(OAUTH2.scope).await
}

/// The standard OAuth 2.0 provider alone, and the token answer of a code exchange there.
async fn oauth2_signed_in() -> (SimulatorHandle, Value) {
    let sim = start(&[OAUTH2]).await;
    let tokens = oauth2_tokens(&sim).await;
    (sim, tokens)
}

async fn me_status(sim: &SimulatorHandle, token: &str) -> u16 {
    get(sim, OAUTH2.provider, "me", Some(token)).await.0
}

/// Asserts the refresh grant refuses `refresh_token` as a token of no live grant; `why` its
/// grant ended.
async fn assert_refresh_refused(client: &SimClient<'_>, refresh_token: &str, why: &str) {
    let answer = refresh(client, refresh_token).await;
    assert_eq!(refusal(&answer), (400, "invalid_grant"), "{why}");
}

#[tokio::test]
async fn expired_access_tokens_are_refused_but_refresh_tokens_still_work() {
    let (sim, tokens) = oauth2_signed_in().await;
    let client = OAUTH2.client(&sim);
    let access = member(&tokens, "access_token");
    sim.expire_access_tokens();
    assert_eq!(me_status(&sim, access).await, 401);
    assert_eq!(
        client.userinfo(Some(access)).await.0,
        401,
        "expired everywhere"
    );
    let (status, renewed) = refresh(&client, member(&tokens, "refresh_token")).await;
    assert_eq!(status, 200, "{renewed}");
    assert_eq!(me_status(&sim, member(&renewed, "access_token")).await, 200);
    assert!(
        sim.issued_access_tokens().contains(&access.to_owned()),
        "an expired token is still looked for in leaks"
    );
}

#[tokio::test]
async fn revoking_an_expired_access_token_still_ends_its_grant() {
    let (sim, tokens) = oauth2_signed_in().await;
    let client = OAUTH2.client(&sim);
    sim.expire_access_tokens();
    let access = member(&tokens, "access_token");
    assert_eq!(client.revoke(access, "access_token").await.0, 200);
    let kinds: Vec<_> = sim.revocations().into_iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [Some(TokenKind::Access)]);
    let refresh_token = member(&tokens, "refresh_token");
    assert_refresh_refused(&client, refresh_token, "the revocation reaches the grant").await;
}

#[tokio::test]
async fn revoked_grants_refuse_the_api_and_the_refresh_grant() {
    let (sim, tokens) = oauth2_signed_in().await;
    let client = OAUTH2.client(&sim);
    sim.revoke_grants();
    assert_eq!(me_status(&sim, member(&tokens, "access_token")).await, 401);
    let refresh_token = member(&tokens, "refresh_token");
    assert_refresh_refused(&client, refresh_token, "grants revoked").await;
    let later = oauth2_tokens(&sim).await;
    assert_eq!(me_status(&sim, member(&later, "access_token")).await, 200);
}

#[tokio::test]
async fn without_rotation_a_refresh_answers_no_refresh_token_and_the_old_one_stays() {
    let (sim, tokens) = oauth2_signed_in().await;
    let client = OAUTH2.client(&sim);
    let refresh_token = member(&tokens, "refresh_token").to_owned();
    for _ in 0..2 {
        let (status, answer) = refresh(&client, &refresh_token).await;
        assert_eq!(status, 200, "{answer}");
        assert!(answer.get("refresh_token").is_none(), "{answer}");
    }
}

#[tokio::test]
async fn with_rotation_a_refresh_token_works_once_and_its_successor_takes_over() {
    let sim = start(&[OAUTH2]).await;
    let client = OAUTH2.client(&sim);
    sim.set_refresh_rotation(true);
    let first = member(&oauth2_tokens(&sim).await, "refresh_token").to_owned();
    let (status, answer) = refresh(&client, &first).await;
    assert_eq!(status, 200, "{answer}");
    let second = member(&answer, "refresh_token").to_owned();
    assert_ne!(second, first);
    assert_eq!(me_status(&sim, member(&answer, "access_token")).await, 200);
    assert_refresh_refused(&client, &first, "rotated out").await;
    assert_eq!(refresh(&client, &second).await.0, 200);
}

#[tokio::test]
async fn refresh_grants_counts_the_successful_ones_per_provider() {
    let sim = start(&[OAUTH2, OIDC]).await;
    let client = OAUTH2.client(&sim);
    let refresh_token = member(&oauth2_tokens(&sim).await, "refresh_token").to_owned();
    assert_eq!(sim.refresh_grants(Provider::StandardOauth2), 0);
    refresh(&client, &refresh_token).await;
    refresh(&client, &refresh_token).await;
    refresh(&client, "never-issued").await;
    assert_eq!(sim.refresh_grants(Provider::StandardOauth2), 2);
    assert_eq!(sim.refresh_grants(Provider::StandardOidc), 0);
    let url = format!("{}/_control/refresh_grants", sim.base_url());
    let counts: Value = http().get(url).send().await.unwrap().json().await.unwrap();
    assert_eq!(counts, json!({"oauth2": 2}));
}

#[tokio::test]
async fn a_refresh_delay_holds_the_answer_back() {
    let (sim, tokens) = oauth2_signed_in().await;
    let client = OAUTH2.client(&sim);
    let refresh_token = member(&tokens, "refresh_token").to_owned();
    let delay = Duration::from_millis(300);
    sim.set_refresh_delay(delay);
    let started = Instant::now();
    assert_eq!(refresh(&client, &refresh_token).await.0, 200);
    assert!(started.elapsed() >= delay, "{:?}", started.elapsed());
}

#[tokio::test]
async fn overlapping_refreshes_of_one_rotating_token_leave_one_winner() {
    let (sim, tokens) = oauth2_signed_in().await;
    let client = OAUTH2.client(&sim);
    let refresh_token = member(&tokens, "refresh_token").to_owned();
    sim.set_refresh_rotation(true);
    let delay = Duration::from_millis(200);
    sim.set_refresh_delay(delay);
    let started = Instant::now();
    let (a, b) = tokio::join!(
        refresh(&client, &refresh_token),
        refresh(&client, &refresh_token)
    );
    assert!(started.elapsed() >= delay);
    let mut statuses = [refusal(&a), refusal(&b)];
    statuses.sort_unstable();
    assert_eq!(statuses, [(200, ""), (400, "invalid_grant")]);
    assert_eq!(sim.refresh_grants(Provider::StandardOauth2), 1);
}

#[tokio::test]
async fn the_control_api_expires_revokes_and_sets_the_refresh_knobs() {
    let (sim, tokens) = oauth2_signed_in().await;
    let client = OAUTH2.client(&sim);
    assert_eq!(client.control("tokens/expire", None).await, 204);
    assert_eq!(me_status(&sim, member(&tokens, "access_token")).await, 401);
    let knobs = json!({"rotation": true, "delay_ms": 50});
    assert_eq!(client.control("refresh_knobs", Some(knobs)).await, 204);
    let started = Instant::now();
    let (status, renewed) = refresh(&client, member(&tokens, "refresh_token")).await;
    assert_eq!(status, 200, "{renewed}");
    assert!(started.elapsed() >= Duration::from_millis(50));
    let rotated = member(&renewed, "refresh_token");
    assert_eq!(client.control("grants/revoke", None).await, 204);
    assert_eq!(me_status(&sim, member(&renewed, "access_token")).await, 401);
    assert_refresh_refused(&client, rotated, "grants revoked").await;
    let unknown_knob = json!({"rotate": true});
    assert_eq!(
        client.control("refresh_knobs", Some(unknown_knob)).await,
        422
    );
}

#[tokio::test]
async fn every_provider_that_issues_refresh_tokens_redeems_them() {
    let sim = start(&ALL).await;
    let mut redeemed = Vec::new();
    for fixture in ALL {
        // Microsoft and the standard OIDC provider want `offline_access` for one.
        let offline = [MICROSOFT.provider, OIDC.provider].contains(&fixture.provider);
        let scope = match offline {
            true => format!("{} offline_access", fixture.scope),
            false => fixture.scope.to_owned(),
        };
        let client = fixture.client(&sim);
        let tokens = client.tokens(&scope).await;
        let Some(refresh_token) = tokens["refresh_token"].as_str() else {
            continue;
        };
        let (status, renewed) = refresh(&client, refresh_token).await;
        assert_eq!(status, 200, "{fixture}: {renewed}");
        let access = member(&renewed, "access_token");
        assert_eq!(get(&sim, fixture.provider, "me", Some(access)).await.0, 200);
        redeemed.push(fixture.provider.prefix());
    }
    let expected = ["microsoft", "discord", "twitter", "apple", "oidc", "oauth2"];
    assert_eq!(redeemed, expected);
}
