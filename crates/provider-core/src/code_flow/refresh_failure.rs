//! Why a refresh gave no tokens: the provider refusing the grant (its tokens are dropped)
//! or a failure to ask (they stay).

use crate::failure::{TokenRequestError, code_exchange_failure, is_plain_code};
use crate::token_http::TokenHttpError;
use oauth2::RequestTokenError;
use social_login_ports::RefreshFailure;

/// Token endpoint error codes that say nothing against the grant: they are about the
/// client's credentials or the request (RFC 6749 §5.2), the server (§4.1.2.1), or a provider
/// that is busy or its client: Slack's Web API errors
/// (docs.slack.dev/reference/methods/oauth.v2.access) and WeChat's `-1` "System busy", 40013
/// "Invalid App ID" and 40125 (invalid appsecret) (open.wechat.com return codes; its quirk
/// names them `errcode_…`). A refresh answered with one keeps its tokens.
const NOT_ABOUT_THE_GRANT: [&str; 16] = [
    "invalid_client",
    "unauthorized_client",
    "unsupported_grant_type",
    "invalid_scope",
    "server_error",
    "temporarily_unavailable",
    "ratelimited",
    "internal_error",
    "fatal_error",
    "service_unavailable",
    "request_timeout",
    "invalid_client_id",
    "bad_client_secret",
    "errcode_-1",
    "errcode_40013",
    "errcode_40125",
];

/// Why a refresh gave no tokens. The provider refused the grant where it answered an error
/// code (`invalid_grant`, or a provider's own: GitHub's `bad_refresh_token`, X's
/// `invalid_request`, WeChat's `errcode_40030`) other than those not about the grant, with a
/// status that is no 429 or 5xx; or a bare 400, or a 400 whose code is no plain one (Twitch's
/// `"Bad Request"`). Anything else (no answer, a 401 without a code, which is the client's
/// authentication, a 429 or 5xx whatever its body, garbage) is a failure to ask: the tokens
/// stay.
pub(super) fn refresh_failure(error: TokenRequestError) -> RefreshFailure {
    let refused = match &error {
        RequestTokenError::ServerResponse(answer) => {
            against_the_grant(answer.error().as_ref(), 400)
        }
        RequestTokenError::Request(TokenHttpError::ErrorMember { code, status }) => {
            against_the_grant(code, *status)
        }
        RequestTokenError::Request(TokenHttpError::Status(400)) => true,
        _ => false,
    };
    let why = code_exchange_failure(error).to_string();
    if refused {
        RefreshFailure::Refused(why)
    } else {
        RefreshFailure::Failed(why)
    }
}

/// Whether a token endpoint's error `code`, answered with `status`, says the grant is gone.
fn against_the_grant(code: &str, status: u16) -> bool {
    // `safe_error_code`'s stand-ins and Slack's `ok: false` are no code at all.
    let plain = is_plain_code(code);
    let busy = status == 429 || status >= 500;
    !busy && !NOT_ABOUT_THE_GRANT.contains(&code) && (plain || status == 400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_grant_is_told_from_a_provider_that_could_not_be_asked() {
        let error_member = |code: &str| TokenHttpError::ErrorMember {
            code: code.into(),
            status: 400,
        };
        let with_status = |code: &str, status| TokenHttpError::ErrorMember {
            code: code.into(),
            status,
        };
        let refused = [
            error_member("invalid_grant"),
            error_member("bad_refresh_token"),
            error_member("invalid_request"),
            with_status("errcode_40030", 200),
            error_member("unrecognised error code"),
            TokenHttpError::Status(400),
        ];
        for error in refused {
            let failure = refresh_failure(RequestTokenError::Request(error));
            assert!(matches!(failure, RefreshFailure::Refused(_)), "{failure:?}");
        }
        // The client's credentials, a busy provider: the grant may well be alive.
        let failed = [
            error_member("invalid_client"),
            error_member("unauthorized_client"),
            error_member("temporarily_unavailable"),
            error_member("server_error"),
            error_member("ratelimited"),
            error_member("errcode_-1"),
            // A busy provider's answer says nothing of the grant, whatever its code.
            with_status("invalid_grant", 503),
            with_status("invalid_grant", 429),
            // No code at all, at another status than 400.
            with_status("ok: false", 200),
            with_status("unrecognised error code", 401),
            TokenHttpError::Status(401),
            TokenHttpError::Status(429),
            TokenHttpError::Status(503),
            TokenHttpError::Transport("timed out"),
            TokenHttpError::TooLarge,
        ];
        for error in failed {
            let failure = refresh_failure(RequestTokenError::Request(error));
            assert!(matches!(failure, RefreshFailure::Failed(_)), "{failure:?}");
        }
    }
}
