//! The signal rules: names, actions and events, timeliness, late state changes, last way in.

use super::*;
use crate::test_fixtures::{link, user};

fn at(seconds: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(seconds).unwrap()
}

#[test]
fn every_source_round_trips_through_its_stored_name_and_names_its_provider() {
    for source in SignalSource::ALL {
        assert_eq!(source.as_str().parse::<SignalSource>(), Ok(source));
    }
    assert_eq!(
        SignalSource::AppleNotification.provider(),
        ProviderKey::APPLE
    );
    assert_eq!(
        SignalSource::FacebookDataDeletion.provider(),
        ProviderKey::FACEBOOK
    );
    assert_eq!(
        SignalSource::FacebookDeauthorize.provider(),
        ProviderKey::FACEBOOK
    );
    assert_eq!(SignalSource::GoogleRisc.provider(), ProviderKey::GOOGLE);
    assert!("apple".parse::<SignalSource>().is_err());
}

#[test]
fn a_signal_id_is_short_visible_ascii() {
    assert!(SignalId::parse("a1b2-c3.d4_e5").is_ok());
    assert!(SignalId::parse("x".repeat(255)).is_ok());
    for bad in [
        String::new(),
        "x".repeat(256),
        "with space".into(),
        "tab\t".into(),
        "é".into(),
    ] {
        assert_eq!(
            SignalId::parse(bad.clone()),
            Err(InvalidSignalId),
            "{bad:?}"
        );
    }
}

#[test]
fn each_kind_takes_the_contract_action_and_records_its_event() {
    use AuditEventType as E;
    use SignalAction as A;
    let expected = [
        (
            SignalKind::ConsentRevoked,
            A::EndProviderSessionsAndForgetTokens,
            E::ProviderConsentRevoked,
        ),
        (
            SignalKind::AccountDeleted,
            A::RemoveLink,
            E::ProviderAccountDeleted,
        ),
        (
            SignalKind::DataDeletionRequested,
            A::RemoveLink,
            E::ProviderDataDeletionRequested,
        ),
        (
            SignalKind::EmailForwardingChanged,
            A::Record,
            E::ProviderEmailForwardingChanged,
        ),
        (
            SignalKind::SessionsRevoked,
            A::EndProviderSessions,
            E::ProviderSecurityEvent,
        ),
        (
            SignalKind::TokensRevoked,
            A::ForgetTokens,
            E::ProviderSecurityEvent,
        ),
        (
            SignalKind::AccountDisabled,
            A::DisableAccount,
            E::ProviderSecurityEvent,
        ),
        (
            SignalKind::AccountEnabled,
            A::EnableAccount,
            E::ProviderSecurityEvent,
        ),
        (SignalKind::Other, A::Record, E::ProviderSecurityEvent),
    ];
    for (kind, action, event) in expected {
        assert_eq!((kind.action(), kind.event()), (action, event), "{kind:?}");
    }
}

#[test]
fn only_the_session_and_token_actions_end_sessions_or_forget_tokens() {
    use SignalAction as A;
    let ends = [
        A::EndProviderSessions,
        A::EndProviderSessionsAndForgetTokens,
        A::RemoveLink,
    ];
    let forgets = [A::ForgetTokens, A::EndProviderSessionsAndForgetTokens];
    for action in [
        A::Record,
        A::EndProviderSessions,
        A::ForgetTokens,
        A::EndProviderSessionsAndForgetTokens,
        A::RemoveLink,
        A::DisableAccount,
        A::EnableAccount,
    ] {
        assert_eq!(
            action.ends_provider_sessions(),
            ends.contains(&action),
            "{action:?}"
        );
        assert_eq!(
            action.forgets_tokens(),
            forgets.contains(&action),
            "{action:?}"
        );
    }
}

#[test]
fn a_signal_is_timely_from_thirty_days_ago_to_five_minutes_ahead() {
    let now = at(1_800_000_000);
    assert_eq!(check_issued_at(now, now), Ok(()));
    assert_eq!(check_issued_at(now - MAX_SIGNAL_AGE, now), Ok(()));
    assert_eq!(check_issued_at(now + CLOCK_LEEWAY, now), Ok(()));
    assert_eq!(
        check_issued_at(now - MAX_SIGNAL_AGE - Duration::seconds(1), now),
        Err(UntimelySignal::TooOld)
    );
    assert_eq!(
        check_issued_at(now + CLOCK_LEEWAY + Duration::seconds(1), now),
        Err(UntimelySignal::FromTheFuture)
    );
    assert!(
        MAX_SIGNAL_AGE < RECEIPT_RETENTION,
        "a receipt outlives every signal it guards"
    );
}

#[test]
fn a_provider_time_may_be_seconds_or_milliseconds() {
    assert_eq!(
        time_from_seconds_or_millis(1_611_765_847),
        Some(at(1_611_765_847))
    );
    assert_eq!(
        time_from_seconds_or_millis(1_611_765_847_700),
        Some(at(1_611_765_847))
    );
    assert_eq!(time_from_seconds_or_millis(0), Some(at(0)));
    assert_eq!(time_from_seconds_or_millis(i64::MAX), None);
    assert_eq!(time_from_seconds_or_millis(i64::MIN), None);
}

#[test]
fn a_late_state_change_never_undoes_a_newer_one() {
    assert!(state_change_applies(at(10), None));
    assert!(state_change_applies(at(10), Some(at(10))));
    assert!(state_change_applies(at(11), Some(at(10))));
    assert!(!state_change_applies(at(9), Some(at(10))));
}

#[test]
fn removing_the_only_link_of_a_user_without_password_leaves_no_way_in() {
    let lone = user(false);
    let apple = link(&lone, ProviderKey::APPLE);
    assert!(leaves_no_way_in(
        &lone,
        std::slice::from_ref(&apple),
        apple.id
    ));

    let with_password = user(true);
    let apple = link(&with_password, ProviderKey::APPLE);
    assert!(!leaves_no_way_in(
        &with_password,
        std::slice::from_ref(&apple),
        apple.id
    ));

    let two_links = user(false);
    let links = [
        link(&two_links, ProviderKey::APPLE),
        link(&two_links, ProviderKey::GITHUB),
    ];
    assert!(!leaves_no_way_in(&two_links, &links, links[0].id));

    // Another user's link is no way in for this one.
    let stranger = user(false);
    let links = [
        link(&lone, ProviderKey::APPLE),
        link(&stranger, ProviderKey::GITHUB),
    ];
    assert!(leaves_no_way_in(&lone, &links, links[0].id));
}
