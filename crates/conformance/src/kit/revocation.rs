//! Revoking the grant of a sign-in: the simulated provider records exactly the token the
//! row says goes, and every failure is `ProviderError::Revocation` naming the endpoint and
//! the failure, never a token. A provider without an endpoint is sent nothing.

use super::{Adapter, Credentials, Revokes, SHORT_TIMEOUT, Subject, TIMEOUT, revokes};
use crate::expect::assert_no_secret;
use social_login_ports::{ProviderError, ProviderGrant, ProviderLogin, Revoked};
use social_login_simulator::{Endpoint, Fault, SimulatorHandle, TokenKind};
use std::time::Duration;

pub async fn the_grant_of_a_sign_in_is_revoked(subject: &Subject) {
    let (sim, adapter, login) = signed_in(subject, TIMEOUT, None).await;
    revokes_exactly(subject, &sim, &*adapter, grant_of(&login)).await;
}

pub async fn without_a_refresh_token_the_access_token_is_revoked(subject: &Subject) {
    let (sim, adapter, login) = signed_in(subject, TIMEOUT, None).await;
    let grant = ProviderGrant {
        refresh_token: None,
        ..grant_of(&login)
    };
    revokes_exactly(subject, &sim, &*adapter, grant).await;
}

pub async fn a_revocation_endpoint_server_error(subject: &Subject) {
    let (sim, adapter, login) = signed_in(subject, TIMEOUT, None).await;
    sim.set_fault(Fault::new(subject.fixture.provider, Endpoint::Revoke).status(500));
    let message = refused(subject, &sim, &*adapter, &login).await;
    assert_eq!(
        message,
        format!("{} answered HTTP 500", row(&*adapter).label)
    );
    assert!(sim.revocations().is_empty());
}

pub async fn a_revocation_endpoint_slower_than_the_timeout(subject: &Subject) {
    // Long enough for the sign-in, which meets no fault.
    let (sim, adapter, login) = signed_in(subject, SHORT_TIMEOUT * 2, None).await;
    let delay =
        Fault::new(subject.fixture.provider, Endpoint::Revoke).delay(Duration::from_secs(30));
    sim.set_fault(delay);
    let message = refused(subject, &sim, &*adapter, &login).await;
    assert_eq!(message, format!("{} timed out", row(&*adapter).label));
}

pub async fn an_unreachable_revocation_endpoint(subject: &Subject) {
    // Port 9 (discard) on loopback: nothing listens there.
    let nowhere = "http://127.0.0.1:9/revoke";
    let (sim, adapter, login) = signed_in(subject, TIMEOUT, Some(nowhere)).await;
    let message = refused(subject, &sim, &*adapter, &login).await;
    assert_eq!(
        message,
        format!("{} could not be reached", row(&*adapter).label)
    );
}

pub async fn revocation_is_not_supported_and_nothing_is_sent(subject: &Subject) {
    let (sim, adapter, login) = signed_in(subject, TIMEOUT, None).await;
    assert!(
        revokes(adapter.plan()).is_none(),
        "a provider without an endpoint"
    );
    assert_eq!(
        adapter.revoke(grant_of(&login)).await,
        Ok(Revoked::NotSupported)
    );
    assert!(sim.revocations().is_empty());
    let sent = sim
        .requests()
        .into_iter()
        .any(|r| r.endpoint == Some(Endpoint::Revoke));
    assert!(!sent, "a revocation request was sent");
}

/// Revokes `grant` and checks the one revocation the simulator recorded.
async fn revokes_exactly(
    subject: &Subject,
    sim: &SimulatorHandle,
    adapter: &dyn Adapter,
    grant: ProviderGrant,
) {
    let row = row(adapter);
    let access = grant.access_token.expose().to_owned();
    let (token, kind) = match &grant.refresh_token {
        Some(refresh) if row.refresh_first => (refresh.expose().to_owned(), TokenKind::Refresh),
        _ => (access.clone(), TokenKind::Access),
    };
    assert_eq!(adapter.revoke(grant).await, Ok(Revoked::Done));
    let revoked = sim.revocations();
    assert_eq!(revoked.len(), 1, "{revoked:?}");
    let revoked = &revoked[0];
    assert_eq!(revoked.provider, subject.fixture.provider);
    assert_eq!(revoked.client_id, subject.fixture.client_id);
    assert!(
        revoked.token == token,
        "not the {kind:?} token of the grant"
    );
    assert_eq!(revoked.kind, Some(kind));
    let hint = match kind {
        TokenKind::Access => "access_token",
        TokenKind::Refresh => "refresh_token",
    };
    assert_eq!(revoked.hint.as_deref(), row.hints.then_some(hint));
    if kind == TokenKind::Access {
        assert!(!sim.issued_access_tokens().contains(&access), "still live");
    }
}

/// The message of a revocation of `login`'s grant that must fail, checked for secrets.
async fn refused(
    subject: &Subject,
    sim: &SimulatorHandle,
    adapter: &dyn Adapter,
    login: &ProviderLogin,
) -> String {
    let grant = grant_of(login);
    let mut secrets = subject.secrets(sim, &[grant.access_token.expose()]);
    secrets.extend(grant.refresh_token.iter().map(|t| t.expose().to_owned()));
    match adapter.revoke(grant).await {
        Err(ProviderError::Revocation(message)) => {
            assert_no_secret(&message, &secrets);
            message
        }
        other => panic!("expected Revocation, got {other:?}"),
    }
}

/// A simulator, an adapter of `timeout` (whose revocation endpoint is `revocation` when
/// given) and a sign-in through it.
async fn signed_in(
    subject: &Subject,
    timeout: Duration,
    revocation: Option<&str>,
) -> (SimulatorHandle, Box<dyn Adapter>, ProviderLogin) {
    let sim = subject.fixture.start().await;
    let mut settings = subject.fixture.settings(&sim);
    if let Some(url) = revocation {
        settings.endpoints.revocation = Some(url.to_owned());
    }
    let adapter = subject
        .adapter_with(settings, Credentials::Registered, timeout)
        .await;
    let login = subject
        .fixture
        .flow()
        .sign_in(&*adapter)
        .await
        .expect("a sign-in");
    (sim, adapter, login)
}

fn grant_of(login: &ProviderLogin) -> ProviderGrant {
    ProviderGrant {
        access_token: login.tokens.access_token.clone(),
        refresh_token: login.tokens.refresh_token.clone(),
        client_id: None,
    }
}

fn row(adapter: &dyn Adapter) -> Revokes {
    revokes(adapter.plan()).expect("a declared revocation endpoint")
}
