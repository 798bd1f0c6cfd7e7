//! `AppError::code()`: every variant maps to its stable client-visible code.

use social_login_app::AppError;
use social_login_domain::{ErrorCode, SignupRefused, StateMismatch};
use social_login_ports::{
    HashError, ProviderError, RefusalReason, RepositoryError, SignalRefused, StateStoreError,
};
use std::collections::HashSet;

/// The position of a variant in the table below. An exhaustive match, so a new variant
/// does not compile until it is added here, and then the table test asks for its row.
fn variant(error: &AppError) -> usize {
    match error {
        AppError::ProviderNotConfigured => 0,
        AppError::StateMismatch(_) => 1,
        AppError::CodeExchangeFailed(_) => 2,
        AppError::UserInfoFailed(_) => 3,
        AppError::EmailAlreadyRegistered => 4,
        AppError::ProviderAlreadyLinked => 5,
        AppError::AccountNotFound => 6,
        AppError::LastLoginMethod => 7,
        AppError::Unauthorized => 8,
        AppError::InvalidCredentials => 9,
        AppError::Validation(_) => 10,
        AppError::Unavailable(_) => 11,
        AppError::Internal(_) => 12,
        AppError::ReauthenticationRequired => 13,
        AppError::IdTokenNotSupported => 14,
        AppError::RateLimited { .. } => 15,
        AppError::InvalidSignal(_) => 16,
        AppError::ProviderAccountDisabled => 17,
        AppError::SignupNotAllowed => 18,
        AppError::EmailDomainNotAllowed => 19,
        AppError::UserLocked => 20,
        AppError::UserNotFound => 21,
        AppError::LastLoginMethodNeedsForce => 22,
        AppError::RelayNotOffered => 23,
        AppError::ProviderReauthorizationRequired { .. } => 24,
        AppError::ProviderUnavailable(_) => 25,
        AppError::LinkOffered { .. } => 26,
        AppError::InvalidLinkToken => 27,
        AppError::LinkTokenNotForYou => 28,
        AppError::SessionNotFound => 29,
    }
}

fn table() -> Vec<(AppError, ErrorCode)> {
    vec![
        (
            AppError::ProviderNotConfigured,
            ErrorCode::OAuthProviderNotConfigured,
        ),
        (
            AppError::StateMismatch(StateMismatch::Expired),
            ErrorCode::OAuthStateMismatch,
        ),
        (
            AppError::CodeExchangeFailed("x".into()),
            ErrorCode::OAuthCodeExchangeFailed,
        ),
        (
            AppError::UserInfoFailed("x".into()),
            ErrorCode::OAuthUserInfoFailed,
        ),
        (
            AppError::EmailAlreadyRegistered,
            ErrorCode::EmailAlreadyRegistered,
        ),
        (
            AppError::ProviderAlreadyLinked,
            ErrorCode::ProviderAlreadyLinked,
        ),
        (AppError::AccountNotFound, ErrorCode::OAuthAccountNotFound),
        (AppError::LastLoginMethod, ErrorCode::LastLoginMethod),
        (
            AppError::LastLoginMethodNeedsForce,
            ErrorCode::LastLoginMethod,
        ),
        (AppError::RelayNotOffered, ErrorCode::NotFound),
        (
            AppError::LinkOffered {
                link_token: "t".into(),
            },
            ErrorCode::EmailAlreadyRegistered,
        ),
        (AppError::InvalidLinkToken, ErrorCode::InvalidLinkToken),
        (AppError::SessionNotFound, ErrorCode::NotFound),
        (AppError::LinkTokenNotForYou, ErrorCode::LinkTokenNotForYou),
        (
            AppError::ProviderReauthorizationRequired {
                provider: social_login_domain::ProviderKey::GITHUB,
            },
            ErrorCode::ProviderReauthorizationRequired,
        ),
        (
            AppError::ProviderUnavailable("x".into()),
            ErrorCode::ProviderUnavailable,
        ),
        (AppError::Unauthorized, ErrorCode::Unauthorized),
        (AppError::InvalidCredentials, ErrorCode::InvalidCredentials),
        (
            AppError::ReauthenticationRequired,
            ErrorCode::ReauthenticationRequired,
        ),
        (AppError::Validation("x".into()), ErrorCode::ValidationError),
        (
            AppError::Unavailable("x".into()),
            ErrorCode::ServiceUnavailable,
        ),
        (AppError::Internal("x".into()), ErrorCode::InternalError),
        (
            AppError::IdTokenNotSupported,
            ErrorCode::IdTokenNotSupported,
        ),
        (
            AppError::RateLimited {
                retry_after_seconds: 1,
            },
            ErrorCode::RateLimited,
        ),
        (
            AppError::InvalidSignal(SignalRefused::new(RefusalReason::InvalidKey, "x")),
            ErrorCode::InvalidSignal,
        ),
        (
            AppError::ProviderAccountDisabled,
            ErrorCode::ProviderAccountDisabled,
        ),
        (AppError::SignupNotAllowed, ErrorCode::SignupNotAllowed),
        (
            AppError::EmailDomainNotAllowed,
            ErrorCode::EmailDomainNotAllowed,
        ),
        (AppError::UserLocked, ErrorCode::UserLocked),
        (AppError::UserNotFound, ErrorCode::NotFound),
    ]
}

#[test]
fn every_variant_maps_to_its_code() {
    let table = table();
    for (error, code) in &table {
        assert_eq!(error.code(), *code, "{error:?}");
    }
    let listed: HashSet<usize> = table.iter().map(|(error, _)| variant(error)).collect();
    assert_eq!(listed.len(), 30, "every variant has exactly one row");
}

#[test]
fn every_code_but_the_http_layers_own_comes_from_some_variant() {
    let produced: HashSet<ErrorCode> = table().iter().map(|(error, _)| error.code()).collect();
    let http_only = [
        ErrorCode::PayloadTooLarge,
        ErrorCode::RequestTimeout,
        ErrorCode::MethodNotAllowed,
        ErrorCode::MalformedRequest,
        ErrorCode::UriTooLong,
        ErrorCode::HeadersTooLarge,
    ];
    for code in ErrorCode::ALL {
        assert_eq!(
            produced.contains(&code),
            !http_only.contains(&code),
            "{code}"
        );
    }
}

#[test]
fn every_state_mismatch_reason_is_one_code() {
    for why in [
        StateMismatch::Unknown,
        StateMismatch::Expired,
        StateMismatch::OtherProvider,
        StateMismatch::WrongPurpose,
        StateMismatch::OtherUser,
    ] {
        assert_eq!(AppError::from(why).code(), ErrorCode::OAuthStateMismatch);
    }
}

#[test]
fn port_errors_translate_to_their_client_codes() {
    let cases = [
        (
            AppError::from(ProviderError::CodeExchange("x".into())),
            ErrorCode::OAuthCodeExchangeFailed,
        ),
        (
            AppError::from(ProviderError::UserInfo("x".into())),
            ErrorCode::OAuthUserInfoFailed,
        ),
        (
            AppError::from(ProviderError::IdTokenNotSupported),
            ErrorCode::IdTokenNotSupported,
        ),
        (
            AppError::from(ProviderError::ApiCall("x".into())),
            ErrorCode::ProviderUnavailable,
        ),
        (
            AppError::from(RepositoryError::Unavailable("x".into())),
            ErrorCode::ServiceUnavailable,
        ),
        (
            AppError::from(RepositoryError::Internal("x".into())),
            ErrorCode::InternalError,
        ),
        (
            AppError::from(StateStoreError::unreachable("x")),
            ErrorCode::ServiceUnavailable,
        ),
        (
            AppError::from(HashError::Busy),
            ErrorCode::ServiceUnavailable,
        ),
        (
            AppError::from(HashError::Failed("x".into())),
            ErrorCode::InternalError,
        ),
        (
            AppError::from(SignupRefused::NotAllowed),
            ErrorCode::SignupNotAllowed,
        ),
        (
            AppError::from(SignupRefused::EmailDomainNotAllowed),
            ErrorCode::EmailDomainNotAllowed,
        ),
    ];
    for (error, code) in cases {
        assert_eq!(error.code(), code, "{error:?}");
    }
}
