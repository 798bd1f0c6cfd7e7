//! Listing the enabled providers: configuration order, each as it describes itself.

use crate::world::World;
use social_login_app::ProviderRegistry;
use social_login_domain::{ProviderKey, ProviderKind};
use social_login_ports::ProviderInfo;
use social_login_testing::FakeProvider;
use std::sync::Arc;

fn acme() -> Arc<FakeProvider> {
    let key: ProviderKey = "acme-sso".parse().unwrap();
    Arc::new(FakeProvider::new(key).with_info(ProviderInfo {
        key,
        display_name: "Acme SSO".into(),
        kind: ProviderKind::Oidc,
        id_token: true,
    }))
}

fn listed(registry: ProviderRegistry) -> Vec<(String, String, ProviderKind, bool)> {
    let world = World::new();
    let ports = social_login_app::Ports {
        providers: registry,
        ..world.ports()
    };
    world
        .service_with(ports)
        .providers()
        .into_iter()
        .map(|info| {
            let ProviderInfo {
                key,
                display_name,
                kind,
                id_token,
            } = info;
            (key.to_string(), display_name, kind, id_token)
        })
        .collect()
}

#[test]
fn providers_are_listed_in_the_order_they_were_added_as_each_describes_itself() {
    let registry = ProviderRegistry::new()
        .with(Arc::new(FakeProvider::new(ProviderKey::TWITTER)))
        .with(acme())
        .with(Arc::new(FakeProvider::new(ProviderKey::GOOGLE)));
    assert_eq!(
        listed(registry),
        [
            ("twitter".into(), "X".into(), ProviderKind::OAuth2, false),
            (
                "acme-sso".into(),
                "Acme SSO".into(),
                ProviderKind::Oidc,
                true
            ),
            ("google".into(), "Google".into(), ProviderKind::Oidc, true),
        ]
    );
}

#[test]
fn a_provider_added_again_replaces_the_first_where_it_stood() {
    let registry = ProviderRegistry::new()
        .with(Arc::new(FakeProvider::new("acme-sso".parse().unwrap())))
        .with(Arc::new(FakeProvider::new(ProviderKey::GITHUB)))
        .with(acme());
    let keys: Vec<String> = listed(registry).into_iter().map(|row| row.0).collect();
    assert_eq!(keys, ["acme-sso", "github"]);
    let registry = ProviderRegistry::new()
        .with(Arc::new(FakeProvider::new("acme-sso".parse().unwrap())))
        .with(acme());
    assert_eq!(
        listed(registry)[0].1,
        "Acme SSO",
        "the later adapter answers"
    );
}

#[test]
fn no_provider_enabled_lists_nothing() {
    assert!(listed(ProviderRegistry::new()).is_empty());
}
