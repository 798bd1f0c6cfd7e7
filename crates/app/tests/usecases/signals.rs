//! Signals from providers: verified before any repository call, then acted on once; a
//! provider not enabled has no endpoint; a data deletion about nobody still has a status.

use crate::world::{World, identity, provider_login};
use social_login_app::{AppError, AppResult, AuthService, Ports, SignalVerifiers};
use social_login_domain::signal::RECEIPT_RETENTION;
use social_login_domain::{
    AuditEventType, Origin, ProviderKey, ProviderSubject, SignalId, SignalKind, SignalSource,
};
use social_login_ports::{Clock, MockSignalRepository, RefusalReason, VerifiedSignal};
use social_login_testing::{FakeProvider, FakeSignalVerifier};
use std::sync::Arc;
use time::Duration;

/// The world's service with a verifier on every signal endpoint, and facebook enabled too.
struct Signals {
    world: World,
    service: AuthService,
    risc: Arc<FakeSignalVerifier>,
    deletion: Arc<FakeSignalVerifier>,
    apple: Arc<FakeSignalVerifier>,
}

fn signals() -> Signals {
    signals_on(World::new(), |ports| ports)
}

fn signals_on(world: World, adjust: impl FnOnce(Ports) -> Ports) -> Signals {
    let risc = Arc::new(FakeSignalVerifier::new(SignalSource::GoogleRisc));
    let deletion = Arc::new(FakeSignalVerifier::new(SignalSource::FacebookDataDeletion));
    let apple = Arc::new(FakeSignalVerifier::new(SignalSource::AppleNotification));
    let mut ports = world.ports();
    ports.providers = ports
        .providers
        .with(Arc::new(FakeProvider::new(ProviderKey::FACEBOOK)));
    ports.signal_verifiers = SignalVerifiers::new()
        .with(risc.clone())
        .with(deletion.clone())
        .with(apple.clone());
    let service = world.service_with(adjust(ports));
    Signals {
        world,
        service,
        risc,
        deletion,
        apple,
    }
}

impl Signals {
    /// A signal `verifier` signs: `kind` about `subject`, happening now, id `id`.
    fn signed(
        &self,
        verifier: &FakeSignalVerifier,
        id: &str,
        kind: SignalKind,
        subject: Option<&str>,
    ) -> String {
        let now = self.world.clock.now();
        verifier.sign(VerifiedSignal {
            source: social_login_ports::SignalVerifier::source(verifier),
            id: SignalId::parse(id).unwrap(),
            issued_at: now,
            kind,
            subject: subject.map(|sub| ProviderSubject::parse(sub).unwrap()),
            occurred_at: now,
            payload: None,
        })
    }

    async fn receive(&self, source: SignalSource, token: &str) -> AppResult<SignalId> {
        let endpoint = self.service.signal_endpoint(source)?;
        self.service
            .receive_signal(&endpoint, token, &Origin::default())
            .await
    }

    /// What [`Signals::signed`] makes, received at `verifier`'s endpoint.
    async fn deliver(
        &self,
        verifier: &FakeSignalVerifier,
        id: &str,
        kind: SignalKind,
        subject: Option<&str>,
    ) -> AppResult<SignalId> {
        let token = self.signed(verifier, id, kind, subject);
        let source = social_login_ports::SignalVerifier::source(verifier);
        self.receive(source, &token).await
    }

    async fn refreshes(&self, refresh_token: &str) -> bool {
        let origin = Origin::default();
        self.service.refresh(refresh_token, &origin).await.is_ok()
    }
}

#[tokio::test]
async fn sessions_revoked_ends_the_google_sessions_and_a_password_session_keeps_refreshing() {
    let signals = signals();
    let world = &signals.world;
    let password = world.register("ada@example.com", "correct horse").await;
    let google = identity(ProviderKey::GOOGLE, "g-ada", Some("ada@gmail.com"), true);
    world
        .link(password.user.id, provider_login(google.clone()))
        .await;
    let by_google = world.login_with(provider_login(google)).await;

    let revoked = SignalKind::SessionsRevoked;
    let delivered = signals.deliver(&signals.risc, "set-1", revoked, Some("g-ada"));
    delivered.await.unwrap();

    assert!(!signals.refreshes(by_google.refresh_token.expose()).await);
    assert!(signals.refreshes(password.refresh_token.expose()).await);
    let events = world.service.events(password.user.id).await.unwrap();
    assert_eq!(events[0].kind, AuditEventType::ProviderSecurityEvent);
    assert_eq!(events[0].provider, Some(ProviderKey::GOOGLE));
}

#[tokio::test]
async fn a_signal_that_does_not_verify_is_refused_before_any_repository_call() {
    // No expectation: any call would fail the test.
    let signals = signals_on(World::new(), |ports| Ports {
        signals: Arc::new(MockSignalRepository::new()),
        ..ports
    });
    let refused = signals.receive(SignalSource::GoogleRisc, "forged").await;
    let Err(AppError::InvalidSignal(why)) = refused else {
        panic!("{refused:?}");
    };
    assert_eq!(why.reason, RefusalReason::InvalidKey);
    assert_eq!(signals.risc.presented(), ["forged"]);
}

#[tokio::test]
async fn a_signal_about_no_account_writes_nothing() {
    let signals = signals_on(World::new(), |ports| Ports {
        signals: Arc::new(MockSignalRepository::new()),
        ..ports
    });
    let delivered = signals.deliver(&signals.risc, "set-verify", SignalKind::Other, None);
    assert!(delivered.await.is_ok());
}

#[tokio::test]
async fn a_provider_that_is_not_enabled_has_no_signal_endpoint_and_nothing_is_verified() {
    let signals = signals();
    let revoked = SignalKind::ConsentRevoked;
    assert_eq!(
        signals
            .deliver(&signals.apple, "jti-1", revoked, Some("a"))
            .await,
        Err(AppError::ProviderNotConfigured)
    );
    // Its token was made by `signed`, never presented.
    assert!(signals.apple.presented().is_empty());
}

#[tokio::test]
async fn an_account_google_disabled_logs_nobody_in_until_google_enables_it() {
    let signals = signals();
    let world = &signals.world;
    let google = identity(ProviderKey::GOOGLE, "g-ada", Some("ada@gmail.com"), true);
    let first = world.login_with(provider_login(google.clone())).await;

    let off = SignalKind::AccountDisabled;
    let delivered = signals.deliver(&signals.risc, "set-off", off, Some("g-ada"));
    delivered.await.unwrap();
    assert!(
        !signals.refreshes(first.refresh_token.expose()).await,
        "its sessions ended"
    );
    assert_eq!(
        world
            .sign_in(provider_login(google.clone()))
            .await
            .map(|l| l.is_new_user),
        Err(AppError::ProviderAccountDisabled)
    );

    world.clock.advance(Duration::minutes(1));
    let on = SignalKind::AccountEnabled;
    let delivered = signals.deliver(&signals.risc, "set-on", on, Some("g-ada"));
    delivered.await.unwrap();
    let again = world.login_with(provider_login(google)).await;
    assert_eq!(again.user.id, first.user.id);
}

#[tokio::test]
async fn a_data_deletion_about_nobody_answers_a_code_whose_status_is_found_for_ninety_days() {
    let signals = signals();
    let token = signals.signed(
        &signals.deletion,
        "c0ffee00c0ffee00c0ffee00",
        SignalKind::DataDeletionRequested,
        Some("fb-nobody"),
    );
    let code = signals
        .receive(SignalSource::FacebookDataDeletion, &token)
        .await
        .unwrap();
    assert_eq!(code.as_str(), "c0ffee00c0ffee00c0ffee00");
    let received = signals.world.clock.now();
    let status = |code: &'static str| signals.service.data_deletion_status(code);
    assert_eq!(status("c0ffee00c0ffee00c0ffee00").await, Ok(Some(received)));
    assert_eq!(status("deadbeef").await, Ok(None));
    assert_eq!(status("not a code").await, Ok(None));

    // The same request again: the same code, the first time kept.
    signals.world.clock.advance(Duration::hours(1));
    signals
        .receive(SignalSource::FacebookDataDeletion, &token)
        .await
        .unwrap();
    assert_eq!(status("c0ffee00c0ffee00c0ffee00").await, Ok(Some(received)));

    signals.world.clock.advance(RECEIPT_RETENTION);
    assert_eq!(signals.service.prune_signal_receipts().await, Ok(1));
    assert_eq!(status("c0ffee00c0ffee00c0ffee00").await, Ok(None));
}
