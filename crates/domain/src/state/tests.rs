use super::*;

fn now() -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap()
}

fn issued(purpose: Purpose) -> OAuthState {
    OAuthState::issue(
        StateId::from_bytes([7; 16]),
        ProviderKey::GITHUB,
        purpose,
        SecretText::new("verifier"),
        SecretText::new("nonce"),
        now(),
        DEFAULT_STATE_TTL,
    )
}

#[test]
fn a_value_we_could_have_issued_parses_back_unchanged() {
    let raw = "CpVKSsUU7sAmHgxZI2ku4UW8EuqF7k_R_QwL9tFoH7Q";
    assert_eq!(StateToken::parse(raw).unwrap().as_str(), raw);
    assert_eq!(
        StateToken::parse_owned(raw.to_owned()).unwrap().as_str(),
        raw
    );
}

#[test]
fn malformed_values_never_reach_the_store() {
    for bad in [
        "",
        "short",
        "has space in it......",
        "a/b+c=d...............",
    ] {
        assert_eq!(StateToken::parse(bad), Err(MalformedState), "{bad:?}");
        assert_eq!(
            StateToken::parse_owned(bad.to_owned()),
            Err(MalformedState),
            "{bad:?}"
        );
    }
    assert!(StateToken::parse(&"a".repeat(MAX_STATE_TOKEN_LEN + 1)).is_err());
    assert!(StateToken::parse(&"a".repeat(MAX_STATE_TOKEN_LEN)).is_ok());
}

#[test]
fn login_state_is_consumed_by_the_login_callback() {
    let redeemed = issued(Purpose::Login)
        .redeem(ProviderKey::GITHUB, Flow::Login, now())
        .unwrap();
    assert_eq!(redeemed.pkce_verifier.expose(), "verifier");
    assert_eq!(redeemed.purpose, Purpose::Login);
}

#[test]
fn connect_state_is_consumed_by_connect_of_the_bound_user() {
    let user = UserId::new();
    let redeemed = issued(Purpose::Connect { user })
        .redeem(ProviderKey::GITHUB, Flow::Connect { caller: user }, now())
        .unwrap();
    assert_eq!(redeemed.purpose, Purpose::Connect { user });
}

#[test]
fn state_expires_after_ten_minutes_by_default() {
    let state = issued(Purpose::Login);
    let just_before = now() + Duration::minutes(10) - Duration::seconds(1);
    assert!(!state.is_expired(just_before));
    assert_eq!(
        state.redeem(
            ProviderKey::GITHUB,
            Flow::Login,
            now() + Duration::minutes(10)
        ),
        Err(StateMismatch::Expired)
    );
}

#[test]
fn login_state_is_refused_by_connect() {
    let caller = UserId::new();
    assert_eq!(
        issued(Purpose::Login).redeem(ProviderKey::GITHUB, Flow::Connect { caller }, now()),
        Err(StateMismatch::WrongPurpose)
    );
}

#[test]
fn connect_state_is_refused_by_the_login_callback() {
    let user = UserId::new();
    assert_eq!(
        issued(Purpose::Connect { user }).redeem(ProviderKey::GITHUB, Flow::Login, now()),
        Err(StateMismatch::WrongPurpose)
    );
}

#[test]
fn connect_state_is_refused_for_another_user() {
    let user = UserId::new();
    let caller = UserId::new();
    assert_eq!(
        issued(Purpose::Connect { user }).redeem(
            ProviderKey::GITHUB,
            Flow::Connect { caller },
            now()
        ),
        Err(StateMismatch::OtherUser)
    );
}

#[test]
fn state_is_bound_to_the_provider_it_was_minted_for() {
    assert_eq!(
        issued(Purpose::Login).redeem(ProviderKey::GOOGLE, Flow::Login, now()),
        Err(StateMismatch::OtherProvider)
    );
}

#[test]
fn a_value_spent_before_is_unknown_even_if_everything_else_matches() {
    assert_eq!(
        redeem_spent(
            issued(Purpose::Login),
            Spend::Again,
            ProviderKey::GITHUB,
            Flow::Login,
            now()
        ),
        Err(StateMismatch::Unknown)
    );
}

#[test]
fn a_first_spend_redeems_by_the_rules() {
    let redeemed = redeem_spent(
        issued(Purpose::Login),
        Spend::First,
        ProviderKey::GITHUB,
        Flow::Login,
        now(),
    );
    assert!(redeemed.is_ok());
    assert_eq!(
        redeem_spent(
            issued(Purpose::Login),
            Spend::First,
            ProviderKey::GOOGLE,
            Flow::Login,
            now()
        ),
        Err(StateMismatch::OtherProvider)
    );
}

#[test]
fn a_state_id_prints_as_hex_and_debug_shows_only_a_prefix() {
    let id = StateId::from_bytes([0xab; 16]);
    assert_eq!(id.to_hex(), "ab".repeat(16));
    assert_eq!(format!("{id:?}"), "StateId(abababab…)");
}

#[test]
fn a_bound_value_finishes_only_with_its_binding_and_an_unbound_one_only_without() {
    let binding = StateBinding::from_bytes([3; 16]);
    let other = StateBinding::from_bytes([4; 16]);
    let bound = issued(Purpose::Login).bound_to(Some(binding));
    assert_eq!(bound.check_binding(Some(binding)), Ok(()));
    for presented in [None, Some(other)] {
        let refused = bound.check_binding(presented);
        assert_eq!(refused, Err(StateMismatch::OtherClient), "{presented:?}");
    }
    let unbound = issued(Purpose::Login);
    assert_eq!(unbound.check_binding(None), Ok(()));
    assert_eq!(
        unbound.check_binding(Some(binding)),
        Err(StateMismatch::OtherClient)
    );
}
