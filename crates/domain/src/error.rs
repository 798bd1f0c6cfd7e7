//! The stable, machine-readable error names of docs/api.md#error-codes.

use std::fmt;

/// Every error a client can see, by its stable `code`. Statuses are the HTTP layer's job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    OAuthProviderNotConfigured,
    OAuthStateMismatch,
    OAuthCodeExchangeFailed,
    OAuthUserInfoFailed,
    /// Native sign-in with an id_token, on a provider that issues none (docs/api.md#native-sign-in).
    IdTokenNotSupported,
    EmailAlreadyRegistered,
    ProviderAlreadyLinked,
    OAuthAccountNotFound,
    LastLoginMethod,
    Unauthorized,
    InvalidCredentials,
    PayloadTooLarge,
    /// The request (headers, body and handling) took longer than the server allows.
    RequestTimeout,
    ValidationError,
    /// No such route (not one of the contract's paths).
    NotFound,
    /// The route exists but not with this method.
    MethodNotAllowed,
    RateLimited,
    ServiceUnavailable,
    InternalError,
    /// A bearer token from a login too long ago for what it asks (deleting the account).
    ReauthenticationRequired,
    /// A provider signal whose sender or content could not be verified.
    InvalidSignal,
    /// A login through a provider account its provider reported disabled.
    ProviderAccountDisabled,
    /// A registration the sign-up policy turns away: the provider's `allow_signup = false`,
    /// or `[signup] password = false` for a password registration.
    SignupNotAllowed,
    /// A registration through a provider whose `allowed_email_domains` the person's
    /// verified email (or Google's hosted domain) is not in.
    EmailDomainNotAllowed,
    /// An operator locked this user: no login, refresh or access token works.
    UserLocked,
    /// The request head is not HTTP (a bad method, URI, header or version).
    MalformedRequest,
    /// The request URI is longer than the server reads.
    UriTooLong,
    /// The request's headers are larger than the server reads.
    HeadersTooLarge,
    /// A relayed call's provider grant is dead (refused refresh, no token): the user must
    /// connect the provider again.
    ProviderReauthorizationRequired,
    /// A relayed call could not reach the provider, or its answer was cut off.
    ProviderUnavailable,
    /// A link token that does not open, has expired or was used.
    InvalidLinkToken,
    /// A link token presented by another user than the one it was offered to.
    LinkTokenNotForYou,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 32] = [
        Self::OAuthProviderNotConfigured,
        Self::OAuthStateMismatch,
        Self::OAuthCodeExchangeFailed,
        Self::OAuthUserInfoFailed,
        Self::IdTokenNotSupported,
        Self::EmailAlreadyRegistered,
        Self::ProviderAlreadyLinked,
        Self::OAuthAccountNotFound,
        Self::LastLoginMethod,
        Self::Unauthorized,
        Self::InvalidCredentials,
        Self::PayloadTooLarge,
        Self::RequestTimeout,
        Self::ValidationError,
        Self::NotFound,
        Self::MethodNotAllowed,
        Self::RateLimited,
        Self::ServiceUnavailable,
        Self::InternalError,
        Self::ReauthenticationRequired,
        Self::InvalidSignal,
        Self::ProviderAccountDisabled,
        Self::SignupNotAllowed,
        Self::EmailDomainNotAllowed,
        Self::UserLocked,
        Self::MalformedRequest,
        Self::UriTooLong,
        Self::HeadersTooLarge,
        Self::ProviderReauthorizationRequired,
        Self::ProviderUnavailable,
        Self::InvalidLinkToken,
        Self::LinkTokenNotForYou,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::OAuthProviderNotConfigured => "OAuthProviderNotConfigured",
            Self::OAuthStateMismatch => "OAuthStateMismatch",
            Self::OAuthCodeExchangeFailed => "OAuthCodeExchangeFailed",
            Self::OAuthUserInfoFailed => "OAuthUserInfoFailed",
            Self::IdTokenNotSupported => "IdTokenNotSupported",
            Self::EmailAlreadyRegistered => "EmailAlreadyRegistered",
            Self::ProviderAlreadyLinked => "ProviderAlreadyLinked",
            Self::OAuthAccountNotFound => "OAuthAccountNotFound",
            Self::LastLoginMethod => "LastLoginMethod",
            Self::Unauthorized => "Unauthorized",
            Self::InvalidCredentials => "InvalidCredentials",
            Self::PayloadTooLarge => "PayloadTooLarge",
            Self::RequestTimeout => "RequestTimeout",
            Self::ValidationError => "ValidationError",
            Self::NotFound => "NotFound",
            Self::MethodNotAllowed => "MethodNotAllowed",
            Self::RateLimited => "RateLimited",
            Self::ServiceUnavailable => "ServiceUnavailable",
            Self::InternalError => "InternalError",
            Self::ReauthenticationRequired => "ReauthenticationRequired",
            Self::InvalidSignal => "InvalidSignal",
            Self::ProviderAccountDisabled => "ProviderAccountDisabled",
            Self::SignupNotAllowed => "SignupNotAllowed",
            Self::EmailDomainNotAllowed => "EmailDomainNotAllowed",
            Self::UserLocked => "UserLocked",
            Self::MalformedRequest => "MalformedRequest",
            Self::UriTooLong => "UriTooLong",
            Self::HeadersTooLarge => "HeadersTooLarge",
            Self::ProviderReauthorizationRequired => "ProviderReauthorizationRequired",
            Self::ProviderUnavailable => "ProviderUnavailable",
            Self::InvalidLinkToken => "InvalidLinkToken",
            Self::LinkTokenNotForYou => "LinkTokenNotForYou",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
