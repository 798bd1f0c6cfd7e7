//! The Microsoft fixture with its people, and an provider pointed at its simulator.

pub use social_login_conformance::MICROSOFT as FX;
use social_login_conformance::fixture;
use social_login_domain::ProviderIdentity;
use social_login_ports::ProviderLogin;
use social_login_provider_core::{Engine, ProviderSettings};
use social_login_simulator::{MicrosoftAccount, SimUser, SimulatorHandle};

/// A work tenant (Contoso).
pub const CONTOSO: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";

/// A Contoso account with no `email`: only its UPN as `preferred_username`.
pub fn grace() -> SimUser {
    SimUser::new("grace-7", "grace")
        .with_name("Grace Hopper")
        .with_microsoft(MicrosoftAccount::work(
            CONTOSO,
            "grace@contoso.onmicrosoft.com",
        ))
}

/// A Contoso account whose tenant administrator typed someone else's address as `email`:
/// the nOAuth attack. No `xms_edov`.
pub fn mallory() -> SimUser {
    SimUser::new("mallory-9", "mallory")
        .with_email("ceo@victim.example", true)
        .with_microsoft(MicrosoftAccount::work(
            CONTOSO,
            "mallory@contoso.onmicrosoft.com",
        ))
}

/// A simulator whose people are ada (a personal account, the default), grace and mallory.
pub async fn simulator() -> SimulatorHandle {
    fixture::start(FX.config([FX.user(), grace(), mallory()])).await
}

pub fn provider_with(settings: ProviderSettings) -> Engine {
    crate::built(&FX, settings).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> Engine {
    provider_with(FX.settings(sim))
}

/// What no message may hold: the fixture's secrets and Microsoft's `AADSTS` error text.
pub fn secrets(sim: &SimulatorHandle) -> Vec<String> {
    let mut secrets = FX.secrets(sim);
    secrets.push("AADSTS".into());
    secrets
}

/// The email of an identity, as text.
pub fn email(login: &ProviderLogin) -> Option<&str> {
    login.identity.email.as_ref().map(|e| e.as_str())
}

/// The identity `login` signs in as through `provider`.
pub async fn identity_as(provider: &Engine, login: &str) -> ProviderIdentity {
    FX.flow()
        .sign_in_as(provider, login)
        .await
        .unwrap()
        .identity
}

/// `login`'s sign-in through a provider pointed at `sim`.
pub async fn signed_in_as(sim: &SimulatorHandle, login: &str) -> ProviderLogin {
    FX.flow().sign_in_as(&provider(sim), login).await.unwrap()
}
