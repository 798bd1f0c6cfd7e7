//! Tests of `AeadStateSealer`: round trips, tampering, rotation, and bad input never panics.

use super::*;
use proptest::prelude::*;
use social_login_domain::{ProviderKey, Purpose, Scopes, StateBinding, StateId, UserId};
use time::OffsetDateTime;

fn secret(label: &str) -> SecretText {
    SecretText::new(format!("{label}-secret-key-of-at-least-32-bytes"))
}

fn state(purpose: Purpose) -> OAuthState {
    OAuthState {
        id: StateId::from_bytes([9; 16]),
        provider: ProviderKey::MICROSOFT,
        purpose,
        pkce_verifier: SecretText::new("v".repeat(43)),
        nonce: SecretText::new("n".repeat(43)),
        expires_at: OffsetDateTime::from_unix_timestamp(1_800_000_600).unwrap(),
        extra_scopes: Scopes::default(),
        binding: None,
    }
}

fn sealer() -> AeadStateSealer {
    AeadStateSealer::new(&secret("current"), &[])
}

/// A connect state, for a fresh user.
fn connect_state() -> OAuthState {
    state(Purpose::Connect {
        user: UserId::new(),
    })
}

#[test]
fn a_sealed_state_opens_to_the_same_state_a_connect_state_with_its_user() {
    let sealer = sealer();
    for original in [state(Purpose::Login), connect_state()] {
        let token = sealer.seal(&original).unwrap();
        assert_eq!(sealer.open(&token), Some(original));
    }
}

#[test]
fn the_value_hides_the_verifier_and_nonce_and_fits_what_providers_accept() {
    let sealer = sealer();
    let original = connect_state().bound_to(Some(StateBinding::from_bytes([1; 16])));
    let token = sealer.seal(&original).unwrap();
    // X documents 500 characters as its limit for `state`.
    assert!(token.as_str().len() < 300, "{}", token.as_str().len());
    let decoded = URL_SAFE_NO_PAD.decode(token.as_str()).unwrap();
    assert!(
        !decoded
            .windows(10)
            .any(|window| window == "vvvvvvvvvv".as_bytes()),
        "the verifier is encrypted, not just encoded"
    );
}

#[test]
fn the_largest_value_the_service_issues_stays_within_what_x_accepts() {
    let words = ["w".repeat(49), "x".repeat(49), "y".repeat(50)];
    let largest = OAuthState {
        provider: ProviderKey::parse(&"p".repeat(32)).unwrap(),
        extra_scopes: Scopes::from_words(words),
        ..connect_state().bound_to(Some(StateBinding::from_bytes([1; 16])))
    };
    assert_eq!(largest.extra_scopes.as_str().len(), 150);
    let token = sealer().seal(&largest).unwrap();
    assert!(token.as_str().len() < 500, "{}", token.as_str().len());
}

#[test]
fn a_sealer_bound_to_an_epoch_opens_only_values_of_that_epoch() {
    let before_restart = sealer().bound_to_epoch([1; EPOCH_BYTES]);
    let after_restart = sealer().bound_to_epoch([2; EPOCH_BYTES]);
    let token = before_restart.seal(&state(Purpose::Login)).unwrap();
    assert_eq!(
        before_restart.open(&token),
        Some(state(Purpose::Login)),
        "the same process opens its values"
    );
    assert_eq!(after_restart.open(&token), None);
    assert_eq!(sealer().open(&token), None, "nor does an unbound sealer");
    // The epoch is authenticated, not sent: the value is as long as an unbound one.
    let unbound = sealer().seal(&state(Purpose::Login)).unwrap();
    assert_eq!(token.as_str().len(), unbound.as_str().len());
    assert_eq!(before_restart.open(&unbound), None);
}

#[test]
fn two_seals_of_one_state_differ() {
    let sealer = sealer();
    let original = state(Purpose::Login);
    assert_ne!(
        sealer.seal(&original).unwrap(),
        sealer.seal(&original).unwrap()
    );
}

#[test]
fn every_flipped_bit_makes_the_value_unopenable() {
    let sealer = sealer();
    let token = sealer.seal(&state(Purpose::Login)).unwrap();
    let blob = URL_SAFE_NO_PAD.decode(token.as_str()).unwrap();
    for index in 0..blob.len() {
        let mut tampered = blob.clone();
        tampered[index] ^= 0x01;
        let tampered = StateToken::parse(&URL_SAFE_NO_PAD.encode(tampered)).unwrap();
        assert_eq!(sealer.open(&tampered), None, "bit flipped at byte {index}");
    }
}

#[test]
fn a_truncated_value_does_not_open() {
    let sealer = sealer();
    let token = sealer.seal(&state(Purpose::Login)).unwrap();
    let raw = token.as_str();
    for len in [16, 30, raw.len() - 1] {
        let cut = StateToken::parse(&raw[..len]).unwrap();
        assert_eq!(sealer.open(&cut), None, "cut to {len}");
    }
}

#[test]
fn a_value_sealed_under_another_secret_does_not_open() {
    let token = AeadStateSealer::new(&secret("attacker"), &[])
        .seal(&state(Purpose::Login))
        .unwrap();
    assert_eq!(sealer().open(&token), None);
}

#[test]
fn a_value_sealed_before_a_rotation_still_opens_after_it() {
    let old = secret("old");
    let token = AeadStateSealer::new(&old, &[])
        .seal(&state(Purpose::Login))
        .unwrap();
    let rotated = AeadStateSealer::new(&secret("new"), std::slice::from_ref(&old));
    assert_eq!(rotated.open(&token), Some(state(Purpose::Login)));
    let forgotten = AeadStateSealer::new(&secret("new"), &[]);
    assert_eq!(forgotten.open(&token), None);
}

#[test]
fn the_state_key_is_not_the_token_cipher_key() {
    // A provider token sealed by the token cipher must not open as a state, and back: the
    // two purposes derive independent keys from one root secret.
    let root = secret("current");
    let cipher = crate::AesGcmTokenCipher::new(&root, &[]);
    let sealed =
        social_login_ports::TokenCipher::seal(&cipher, &SecretText::new("x".repeat(120))).unwrap();
    let (_, encoded) = sealed.as_str().split_once('.').unwrap();
    let mut blob = vec![VERSION];
    blob.extend_from_slice(crate::key_id(&root).as_bytes());
    blob.extend_from_slice(&URL_SAFE_NO_PAD.decode(encoded).unwrap());
    let disguised = StateToken::parse(&URL_SAFE_NO_PAD.encode(blob)).unwrap();
    assert_eq!(sealer().open(&disguised), None);
}

#[test]
fn debug_shows_key_ids_only() {
    let root = secret("current");
    let shown = format!("{:?}", AeadStateSealer::new(&root, &[]));
    assert!(shown.contains(crate::key_id(&root).as_str()));
    crate::keys::assert_reveals_nothing_of(&shown, &root);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn no_token_text_makes_open_panic(raw in "[A-Za-z0-9_-]{16,512}") {
        let token = StateToken::parse(&raw).unwrap();
        prop_assert_eq!(sealer().open(&token), None);
    }

    #[test]
    fn no_plaintext_makes_the_layout_decoder_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = layout::decode(&bytes);
    }

    #[test]
    fn every_well_formed_state_round_trips(
        id in any::<[u8; 16]>(),
        seconds in 0i64..4_000_000_000,
        provider in 0usize..8,
        user in proptest::option::of(any::<u128>()),
        verifier in "[A-Za-z0-9_-]{43,128}",
        nonce in "[A-Za-z0-9_-]{0,64}",
        extra in proptest::collection::vec("[a-z:.]{1,20}", 0..4),
        binding in proptest::option::of(any::<[u8; 16]>()),
    ) {
        let original = OAuthState {
            id: StateId::from_bytes(id),
            provider: ProviderKey::BUILT_IN[provider],
            purpose: match user {
                None => Purpose::Login,
                Some(user) => Purpose::Connect { user: UserId::from_uuid(uuid::Uuid::from_u128(user)) },
            },
            pkce_verifier: SecretText::new(verifier),
            nonce: SecretText::new(nonce),
            expires_at: OffsetDateTime::from_unix_timestamp(seconds).unwrap(),
            extra_scopes: Scopes::from_words(extra),
            binding: binding.map(StateBinding::from_bytes),
        };
        let sealer = sealer();
        let token = sealer.seal(&original).unwrap();
        prop_assert_eq!(sealer.open(&token), Some(original));
    }
}

#[test]
fn the_sealer_holds_the_state_sealer_contract() {
    social_login_testing::contract::token_cipher::state_sealer_holds_its_contract(&sealer());
}

fn offer() -> social_login_domain::link_offer::LinkOffer {
    use social_login_domain::SealedTokens;
    social_login_domain::link_offer::LinkOffer {
        id: StateId::from_bytes([3; 16]),
        user: UserId::new(),
        provider: ProviderKey::GOOGLE,
        subject: social_login_domain::ProviderSubject::parse("g-1").unwrap(),
        email: Some(social_login_domain::Email::parse("ada@example.com").unwrap()),
        tokens: SealedTokens {
            access_token: social_login_domain::SealedToken::new("k1:sealed-access"),
            refresh_token: Some(social_login_domain::SealedToken::new("k1:sealed-refresh")),
            scopes: Scopes::from_words(["openid", "email"]),
            access_expires_at: Some(OffsetDateTime::from_unix_timestamp(1_800_003_600).unwrap()),
            client_id: None,
        },
        expires_at: OffsetDateTime::from_unix_timestamp(1_800_000_600).unwrap(),
    }
}

#[test]
fn a_link_token_opens_as_the_offer_and_as_nothing_else() {
    let sealer = sealer();
    let offer = offer();
    let token = sealer.seal_link(&offer).unwrap();
    assert_eq!(sealer.open_link(&token), Some(offer.clone()));
    for secret in [
        "k1:sealed-access",
        "k1:sealed-refresh",
        "ada@example.com",
        "g-1",
    ] {
        assert!(!token.contains(secret), "the token hides {secret}");
    }
    // Neither kind of value opens as the other.
    let state = sealer.seal(&state(Purpose::Login)).unwrap();
    assert_eq!(sealer.open_link(state.as_str()), None);
    if let Ok(as_state) = StateToken::parse(&token) {
        assert_eq!(sealer.open(&as_state), None);
    }
    // Another key, a flipped byte, garbage: nothing.
    let other = AeadStateSealer::new(&secret("other"), &[]);
    assert_eq!(other.open_link(&token), None);
    let mut bytes = URL_SAFE_NO_PAD.decode(&token).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    assert_eq!(sealer.open_link(&URL_SAFE_NO_PAD.encode(bytes)), None);
    assert_eq!(sealer.open_link("not a token"), None);
    assert_eq!(sealer.open_link(&"A".repeat(20_000)), None);
    // A rotated key still opens what the previous one sealed.
    let rotated = AeadStateSealer::new(&secret("next"), &[secret("current")]);
    assert_eq!(rotated.open_link(&token), Some(offer));
}
