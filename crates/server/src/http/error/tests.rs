//! The statuses, headers and log causes of the API error.

use super::*;

#[test]
fn every_code_has_the_contract_status() {
    let expected = [
        (ErrorCode::OAuthProviderNotConfigured, 404),
        (ErrorCode::OAuthStateMismatch, 400),
        (ErrorCode::OAuthCodeExchangeFailed, 502),
        (ErrorCode::OAuthUserInfoFailed, 502),
        (ErrorCode::IdTokenNotSupported, 400),
        (ErrorCode::EmailAlreadyRegistered, 409),
        (ErrorCode::ProviderAlreadyLinked, 409),
        (ErrorCode::OAuthAccountNotFound, 404),
        (ErrorCode::LastLoginMethod, 400),
        (ErrorCode::Unauthorized, 401),
        (ErrorCode::InvalidCredentials, 401),
        (ErrorCode::ReauthenticationRequired, 401),
        (ErrorCode::InvalidSignal, 400),
        (ErrorCode::ProviderAccountDisabled, 403),
        (ErrorCode::SignupNotAllowed, 403),
        (ErrorCode::EmailDomainNotAllowed, 403),
        (ErrorCode::UserLocked, 403),
        (ErrorCode::PayloadTooLarge, 413),
        (ErrorCode::RequestTimeout, 408),
        (ErrorCode::ValidationError, 422),
        (ErrorCode::NotFound, 404),
        (ErrorCode::MethodNotAllowed, 405),
        (ErrorCode::RateLimited, 429),
        (ErrorCode::ServiceUnavailable, 503),
        (ErrorCode::InternalError, 500),
        (ErrorCode::MalformedRequest, 400),
        (ErrorCode::UriTooLong, 414),
        (ErrorCode::HeadersTooLarge, 431),
        (ErrorCode::ProviderReauthorizationRequired, 409),
        (ErrorCode::ProviderUnavailable, 502),
        (ErrorCode::InvalidLinkToken, 400),
        (ErrorCode::LinkTokenNotForYou, 403),
    ];
    assert_eq!(expected.len(), ErrorCode::ALL.len());
    for (code, status) in expected {
        assert_eq!(status_of(code).as_u16(), status, "{code}");
    }
}

#[test]
fn every_503_says_when_to_retry() {
    for error in [
        ApiError::of(ErrorCode::ServiceUnavailable),
        ApiError::from(AppError::Unavailable("database down".into())),
    ] {
        let response = error.into_response();
        assert_eq!(response.status(), 503);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
    }
}

#[test]
fn an_account_throttle_answers_429_with_its_retry_after() {
    let response = ApiError::from(AppError::RateLimited {
        retry_after_seconds: 840,
    })
    .into_response();
    assert_eq!(response.status(), 429);
    assert_eq!(response.headers()[header::RETRY_AFTER], "840");
}

#[test]
fn only_errors_sent_before_the_body_was_read_close_the_connection() {
    let kept = ApiError::of(ErrorCode::PayloadTooLarge).into_response();
    assert!(kept.headers().get(header::CONNECTION).is_none());
    let closed = ApiError::of(ErrorCode::PayloadTooLarge)
        .closing_connection()
        .into_response();
    assert_eq!(closed.headers()[header::CONNECTION], "close");
    assert_eq!(closed.status(), 413);
}

#[test]
fn a_cause_keeps_its_chain_for_the_log() {
    let error = AppError::from(social_login_ports::RepositoryError::Unavailable(
        "connection refused".into(),
    ));
    assert_eq!(
        cause_chain(&error),
        "dependency unavailable: storage unavailable: connection refused"
    );
}

#[test]
fn internal_causes_are_logged_not_sent() {
    let error = ApiError::from(AppError::Internal("db password=hunter2".into()));
    assert_eq!(error.detail, "internal error");
    let response = error.into_response();
    assert_eq!(response.status(), 500);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "application/problem+json"
    );
}

#[test]
fn debug_output_of_a_link_offer_shows_no_link_token() {
    let offered = AppError::LinkOffered {
        link_token: "sealed-link-token-value".into(),
    };
    assert!(!format!("{offered:?}").contains("sealed-link-token-value"));
    let answered = ApiError::from(offered);
    let shown = format!("{answered:?}");
    assert!(!shown.contains("sealed-link-token-value"), "{shown}");
    assert!(shown.contains("link_token: true"), "{shown}");
}
