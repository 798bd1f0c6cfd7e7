//! The sealing ports' contract: what a cipher seals opens to the same text and does not show
//! it; what a state sealer seals opens to the same state, and nothing else opens.

use social_login_domain::{
    OAuthState, ProviderKey, Purpose, SecretText, StateId, StateToken, UserId,
};
use social_login_ports::{StateSealer, TokenCipher};
use time::OffsetDateTime;

/// Plaintexts with nothing symmetric about them (a reversed copy must not look the same).
const TOKENS: [&str; 3] = [
    "gho_16C7e42F292c6912E7710c838347Ae178B4a",
    "ya29.a0AfB_byC-long-google-token-1234567890",
    "x",
];

/// Checks every rule of the token cipher contract on `cipher`.
pub fn token_cipher_holds_its_contract(cipher: &dyn TokenCipher) {
    for token in TOKENS {
        let sealed = cipher.seal(&SecretText::new(token)).expect("seals");
        assert!(
            !sealed.as_str().contains(token) || token.len() < 2,
            "the sealed value shows the token"
        );
        assert_eq!(cipher.open(&sealed), Ok(SecretText::new(token)));
    }
    assert!(
        cipher
            .open(&social_login_domain::SealedToken::new("not a sealed value"))
            .is_err(),
        "what it did not seal does not open"
    );
}

fn state(purpose: Purpose) -> OAuthState {
    OAuthState {
        id: StateId::from_bytes(uuid::Uuid::new_v4().into_bytes()),
        provider: ProviderKey::GOOGLE,
        purpose,
        pkce_verifier: SecretText::new("v".repeat(43)),
        nonce: SecretText::new("n".repeat(43)),
        expires_at: OffsetDateTime::from_unix_timestamp(1_800_000_600).expect("a valid instant"),
        extra_scopes: match purpose {
            Purpose::Login => social_login_domain::Scopes::default(),
            Purpose::Connect { .. } => {
                social_login_domain::Scopes::from_words(["repo", "read:org"])
            }
        },
        binding: match purpose {
            Purpose::Login => None,
            Purpose::Connect { .. } => Some(social_login_domain::StateBinding::from_bytes([5; 16])),
        },
    }
}

/// Checks every rule of the state sealer contract on `sealer`.
pub fn state_sealer_holds_its_contract(sealer: &dyn StateSealer) {
    for purpose in [
        Purpose::Login,
        Purpose::Connect {
            user: UserId::new(),
        },
    ] {
        let original = state(purpose);
        let token = sealer.seal(&original).expect("seals");
        assert_eq!(sealer.open(&token), Some(original.clone()));
        let again = sealer.seal(&original).expect("seals");
        assert_ne!(token, again, "two values for one state differ");
        assert!(
            !token.as_str().contains(&"v".repeat(20)),
            "the verifier does not show"
        );
    }
    let unknown = StateToken::parse(&"A".repeat(64)).expect("well formed");
    assert_eq!(
        sealer.open(&unknown),
        None,
        "what it did not seal does not open"
    );
}
