//! Native sign-in over every native declaration of this crate, against the simulator's
//! signed tokens: the audiences of `client_ids` and the hashed nonce for each; Microsoft's
//! tenant issuer and subject; LinkedIn, which offers none.

use social_login_conformance::{Fixture, GOOGLE, LINKEDIN, MICROSOFT};
use social_login_domain::SecretText;
use social_login_ports::{IdTokenInput, IdentityProvider, PresentedIdToken, ProviderError};
use social_login_provider_core::spec::built_in_spec;
use social_login_provider_oidc::microsoft::{PERSONAL_ACCOUNT_TENANT, TENANT_PLACEHOLDER};
use social_login_simulator::{MICROSOFT_CONSUMER_TENANT, SimulatorHandle};

const IOS: &str = "com.example.ios";
const RAW_NONCE: &str = "raw-nonce-from-the-app";
// printf %s raw-nonce-from-the-app | sha256sum
const HASHED_NONCE: &str = "98b1235ac1d7ca1101e44f034a720d2015b22de1ee71a8994a7d4e3b8f08eb87";

/// The fixtures of this crate's providers that offer native sign-in.
fn native() -> Vec<Fixture> {
    let native = |fixture: &Fixture| built_in_spec(fixture.key).is_some_and(|s| s.native_sign_in());
    let fixtures: Vec<Fixture> = [GOOGLE, MICROSOFT, LINKEDIN]
        .into_iter()
        .filter(native)
        .collect();
    assert_eq!(fixtures.len(), 2, "google and microsoft");
    fixtures
}

/// `fixture`'s provider on `sim`, accepting `client_ids` besides its own.
fn provider(
    fixture: &Fixture,
    sim: &SimulatorHandle,
    client_ids: &[&str],
) -> impl IdentityProvider {
    let mut settings = fixture.settings(sim);
    settings.client_ids = client_ids.iter().map(|id| (*id).to_owned()).collect();
    crate::built(fixture, settings).unwrap()
}

/// A token the simulator signs for `fixture`'s user to `audience`, carrying `nonce`,
/// presented to `provider` with the raw nonce `sent`.
async fn present(
    provider: &dyn IdentityProvider,
    (fixture, sim): (&Fixture, &SimulatorHandle),
    (audience, nonce): (&str, Option<&str>),
    sent: Option<&str>,
) -> Result<PresentedIdToken, ProviderError> {
    let token = sim.mint_id_token(fixture.provider, &fixture.user(), audience, nonce);
    let input = IdTokenInput {
        id_token: SecretText::new(token),
        nonce: sent.map(SecretText::new),
        post_body: None,
    };
    provider.sign_in_with_id_token(input).await
}

fn refusal(result: Result<PresentedIdToken, ProviderError>) -> String {
    match result {
        Err(ProviderError::UserInfo(why)) => why,
        other => panic!("expected a user info failure, got {other:?}"),
    }
}

#[tokio::test]
async fn each_native_provider_accepts_its_client_ids_and_the_hash_of_the_apps_nonce_only() {
    for fx in native() {
        let sim = fx.start().await;
        let provider = provider(&fx, &sim, &[IOS]);
        let at = (&fx, &sim);
        for audience in [fx.client_id, IOS] {
            let signed = present(
                &provider,
                at,
                (audience, Some(HASHED_NONCE)),
                Some(RAW_NONCE),
            );
            let identity = signed
                .await
                .unwrap_or_else(|e| panic!("{:?} {audience}: {e}", fx.key))
                .identity;
            assert_eq!(identity.provider, fx.key);
            assert!(identity.email_verified, "{:?}", fx.key);
            assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
        }
        let other = present(
            &provider,
            at,
            ("other-app", Some(HASHED_NONCE)),
            Some(RAW_NONCE),
        );
        assert_eq!(refusal(other.await), "id_token audience is not this client");
        let raw = present(
            &provider,
            at,
            (fx.client_id, Some(RAW_NONCE)),
            Some(RAW_NONCE),
        );
        assert_eq!(refusal(raw.await), "id_token nonce does not match");
        let none = present(&provider, at, (fx.client_id, None), Some(RAW_NONCE));
        assert_eq!(refusal(none.await), "id_token has no nonce");
        // No nonce sent: the token must carry none, or anyone holding it could present it.
        let unsent = present(&provider, at, (fx.client_id, Some(HASHED_NONCE)), None);
        let carried = "id_token carries a nonce but the request has none";
        assert_eq!(refusal(unsent.await), carried);
        let bare = present(&provider, at, (fx.client_id, None), None);
        assert!(bare.await.is_ok());
    }
}

#[tokio::test]
async fn a_presented_token_is_usable_until_its_expiry_plus_a_minute() {
    let now = || time::OffsetDateTime::now_utc().unix_timestamp();
    for fx in native() {
        let sim = fx.start().await;
        let provider = provider(&fx, &sim, &[]);
        let before = now();
        let presented = present(&provider, (&fx, &sim), (fx.client_id, None), None).await;
        let after = now();
        // The simulated providers' tokens live an hour (`exp` = `iat` + 3600), as theirs do.
        let until = presented.unwrap().usable_until.unix_timestamp();
        let expected = (before + 3660)..=(after + 3660);
        assert!(
            expected.contains(&until),
            "{:?}: {until} not in {expected:?}",
            fx.key
        );
    }
}

#[tokio::test]
async fn a_web_code_flow_token_cannot_be_presented_as_a_native_one() {
    // The code flow's token carries the state's raw nonce; the app cannot know a value
    // whose hash it is, and without a nonce the token is refused for carrying one.
    let state_nonce = "the-state-nonce-of-a-web-sign-in";
    for fx in native() {
        let sim = fx.start().await;
        let provider = provider(&fx, &sim, &[]);
        let web = (fx.client_id, Some(state_nonce));
        let without = present(&provider, (&fx, &sim), web, None).await;
        let carried = "id_token carries a nonce but the request has none";
        assert_eq!(refusal(without), carried);
        let with_raw = present(&provider, (&fx, &sim), web, Some(state_nonce)).await;
        assert_eq!(refusal(with_raw), "id_token nonce does not match");
    }
}

#[tokio::test]
async fn without_client_ids_only_the_web_client_is_an_audience() {
    for fx in native() {
        let sim = fx.start().await;
        let provider = provider(&fx, &sim, &[]);
        let ios = present(&provider, (&fx, &sim), (IOS, None), None).await;
        assert_eq!(refusal(ios), "id_token audience is not this client");
    }
}

#[tokio::test]
async fn microsoft_checks_the_tenant_issuer_and_scopes_the_subject_by_tenant() {
    let sim = MICROSOFT.start().await;
    let at = (&MICROSOFT, &sim);
    // Ada has no work account: a personal one, whose tenant vouches for the email.
    let provider = provider(&MICROSOFT, &sim, &[IOS]);
    let identity = present(&provider, at, (IOS, None), None)
        .await
        .unwrap()
        .identity;
    assert_eq!(MICROSOFT_CONSUMER_TENANT, PERSONAL_ACCOUNT_TENANT);
    let subject = identity.subject.as_str();
    let scoped = format!("{PERSONAL_ACCOUNT_TENANT}:");
    assert!(subject.starts_with(&scoped), "{subject}");

    // The issuer template must be filled with the token's own tenant: a template naming a
    // fixed other tenant refuses it.
    let mut settings = MICROSOFT.settings(&sim);
    let other_tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";
    let fixed = sim
        .microsoft()
        .issuer
        .replace(TENANT_PLACEHOLDER, other_tenant);
    settings.endpoints.issuer = Some(fixed);
    let single_tenant = crate::built(&MICROSOFT, settings).unwrap();
    let refused = present(&single_tenant, at, (MICROSOFT.client_id, None), None).await;
    assert_eq!(refusal(refused), "id_token issuer is not accepted");
}

#[tokio::test]
async fn linkedin_offers_no_native_sign_in() {
    let sim = LINKEDIN.start().await;
    let provider = provider(&LINKEDIN, &sim, &[]);
    let presented = present(
        &provider,
        (&LINKEDIN, &sim),
        (LINKEDIN.client_id, None),
        None,
    );
    assert_eq!(presented.await, Err(ProviderError::IdTokenNotSupported));
}
