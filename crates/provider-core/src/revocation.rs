//! Revoking a grant at the provider: where the request goes, and what the answer means.
//!
//! Each adapter builds its own request (a form POST, GitHub's JSON `DELETE`, Facebook's
//! Graph `DELETE`) from a [`RevocationEndpoint`] and hands it to [`send_revocation`], which
//! reads the answer with a size cap and turns it into `Revoked::Done` or a
//! `ProviderError::Revocation` naming the status and error code, never a token.

use crate::config_error::{ProviderConfigError, parse_http_url};
use crate::failure::error_member;
use crate::http_client::{CallKind, ProviderHttp};
use social_login_domain::SecretText;
use social_login_ports::{ProviderError, ProviderGrant, Revoked};
use url::Url;

/// Largest revocation answer we read; real ones are empty or a few bytes of JSON.
pub const MAX_REVOCATION_RESPONSE_BYTES: usize = 64 * 1024;

/// Replaced with the client id in a revocation URL that names the client in its path
/// (GitHub's `/applications/{client_id}/grant`).
pub const CLIENT_ID_PLACEHOLDER: &str = "{client_id}";

/// An answer the provider documents as "that token is already invalid": the grant is
/// gone, which is what revocation wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlreadyGone<'a> {
    pub status: u16,
    /// The `error` member of the answer.
    pub error: &'a str,
}

/// A provider's revocation URL, the client credentials it may ask for, and the shared
/// HTTP client to call it with. `Debug` shows no secret (`SecretText` prints `[redacted]`).
#[derive(Debug, Clone)]
pub struct RevocationEndpoint {
    url: Url,
    client_id: String,
    client_secret: SecretText,
    http: ProviderHttp,
}

impl RevocationEndpoint {
    /// An endpoint whose URL is already resolved ([`revocation_url`]); `http` is the shared
    /// client (a clone shares its pool).
    pub fn resolved(
        url: Url,
        client_id: &str,
        client_secret: &SecretText,
        http: &ProviderHttp,
    ) -> Self {
        Self {
            url,
            client_id: client_id.to_owned(),
            client_secret: client_secret.clone(),
            http: http.clone(),
        }
    }

    pub fn url(&self) -> &Url {
        &self.url
    }

    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    pub fn client_secret(&self) -> &SecretText {
        &self.client_secret
    }

    /// The client to build the request on ([`ProviderHttp::reqwest`]) and send it with.
    pub fn http(&self) -> &ProviderHttp {
        &self.http
    }

    /// A form POST of `params` to the endpoint, no client authentication added.
    pub fn post_form(&self, params: &[(&str, &str)]) -> reqwest::RequestBuilder {
        self.http.reqwest().post(self.url.clone()).form(params)
    }

    /// A form POST of `params` plus `client_id` and `client_secret` (`client_secret_post`).
    pub fn post_form_with_body_credentials(
        &self,
        params: &[(&str, &str)],
    ) -> reqwest::RequestBuilder {
        let credentials = [
            ("client_id", self.client_id.as_str()),
            ("client_secret", self.client_secret.expose()),
        ];
        self.post_form(&[params, &credentials].concat())
    }

    /// A form POST of `params` with HTTP Basic client authentication, id and secret
    /// form-encoded first as RFC 6749 §2.3.1 asks (what the token exchange sends too).
    pub fn post_form_with_basic(&self, params: &[(&str, &str)]) -> reqwest::RequestBuilder {
        let encode = |value: &str| url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
        let id: String = encode(&self.client_id);
        let secret: String = encode(self.client_secret.expose());
        self.post_form(params).basic_auth(id, Some(secret))
    }
}

/// `configured` (`endpoints.revocation`), or the provider's `default`, with
/// [`CLIENT_ID_PLACEHOLDER`] filled in; fails naming the field when it is not an http(s) URL.
pub fn revocation_url(
    configured: Option<&str>,
    default: &str,
    client_id: &str,
) -> Result<Url, ProviderConfigError> {
    const FIELD: &str = "endpoints.revocation";
    let configured = configured.unwrap_or(default);
    // Checked as written first, so a bad template is reported as the field's fault.
    parse_http_url(FIELD, configured)?;
    parse_http_url(FIELD, &fill_client_id(configured, client_id))
}

/// The token to send a provider whose revocation of a refresh token ends the whole grant
/// (Google, Discord, X, Apple), with its `token_type_hint`: the refresh token when the
/// grant has one, else the access token.
pub fn whole_grant_token(grant: &ProviderGrant) -> (&SecretText, &'static str) {
    match &grant.refresh_token {
        Some(refresh) => (refresh, "refresh_token"),
        None => (&grant.access_token, "access_token"),
    }
}

/// `url` with the placeholder (as written, or as URL parsing percent-encodes it) replaced
/// by the percent-encoded client id.
fn fill_client_id(url: &str, client_id: &str) -> String {
    let encoded: String = client_id
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect();
    url.replace(CLIENT_ID_PLACEHOLDER, &encoded)
        .replace("%7Bclient_id%7D", &encoded)
}

/// Sends the revocation (built on `http`) and reads its answer: a 2xx without an `error`
/// member, or one of `already_gone`, is `Done`. `what` names the endpoint in failure
/// messages.
pub async fn send_revocation(
    what: &str,
    http: &ProviderHttp,
    request: reqwest::RequestBuilder,
    already_gone: &[AlreadyGone<'_>],
) -> Result<Revoked, ProviderError> {
    let answer = http
        .send(request, MAX_REVOCATION_RESPONSE_BYTES, CallKind::Revocation)
        .await
        .map_err(|error| failure(what, &error.to_string()))?;
    revocation_answer(what, answer.status.as_u16(), &answer.body, already_gone)
}

/// What an answer of `status` with `body` means. Only the status and a plain error code
/// are repeated: the body may quote the token.
pub fn revocation_answer(
    what: &str,
    status: u16,
    body: &[u8],
    already_gone: &[AlreadyGone<'_>],
) -> Result<Revoked, ProviderError> {
    let error = error_member(body);
    let gone = |g: &AlreadyGone<'_>| g.status == status && error.as_deref() == Some(g.error);
    if already_gone.iter().any(gone) {
        return Ok(Revoked::Done);
    }
    match error {
        None if (200..300).contains(&status) => Ok(Revoked::Done),
        None => Err(failure(what, &format!("answered HTTP {status}"))),
        Some(code) => Err(failure(
            what,
            &format!("answered HTTP {status} with error `{code}`"),
        )),
    }
}

fn failure(what: &str, detail: &str) -> ProviderError {
    ProviderError::Revocation(format!("{what} {detail}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHAT: &str = "X revocation endpoint";
    const GONE: AlreadyGone = AlreadyGone {
        status: 400,
        error: "invalid_token",
    };

    #[test]
    fn a_2xx_is_done_and_a_documented_already_gone_answer_too() {
        assert_eq!(revocation_answer(WHAT, 200, b"", &[]), Ok(Revoked::Done));
        assert_eq!(revocation_answer(WHAT, 204, b"", &[]), Ok(Revoked::Done));
        let gone = br#"{"error":"invalid_token","error_description":"Token expired or revoked"}"#;
        assert_eq!(
            revocation_answer(WHAT, 400, gone, &[GONE]),
            Ok(Revoked::Done)
        );
        // Without the provider documenting it, the same answer is a failure.
        assert_eq!(
            revocation_answer(WHAT, 400, gone, &[]),
            Err(ProviderError::Revocation(
                "X revocation endpoint answered HTTP 400 with error `invalid_token`".into()
            ))
        );
    }

    #[test]
    fn failures_name_the_status_and_code_never_the_body() {
        let body = br#"{"error":"invalid_client","token":"tok_leaked_value"}"#;
        let error = revocation_answer(WHAT, 401, body, &[GONE]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "revocation failed: X revocation endpoint answered HTTP 401 with error `invalid_client`"
        );
        let error = revocation_answer(WHAT, 500, b"tok_leaked_value", &[]).unwrap_err();
        assert!(!error.to_string().contains("tok_leaked"), "{error}");
        // An error member in a 200 is a failure, as at the token endpoint.
        let in_200 = revocation_answer(WHAT, 200, br#"{"error":"unsupported_token_type"}"#, &[]);
        assert!(in_200.is_err());
    }

    #[test]
    fn the_client_id_placeholder_is_filled_in_whichever_way_it_is_written() {
        let default = "https://api.github.com/applications/{client_id}/grant";
        let url = revocation_url(None, default, "Iv1.ab c").unwrap();
        let expected = "https://api.github.com/applications/Iv1.ab%20c/grant";
        assert_eq!(url.as_str(), expected);
        let configured = "http://127.0.0.1:1/github/api/applications/%7Bclient_id%7D/grant";
        let url = revocation_url(Some(configured), default, "Ov23li").unwrap();
        let expected = "http://127.0.0.1:1/github/api/applications/Ov23li/grant";
        assert_eq!(url.as_str(), expected);
    }

    #[test]
    fn a_configured_url_must_be_http_and_its_error_names_the_field() {
        let error = revocation_url(
            Some("ftp://idp.example.com/revoke"),
            "https://x/revoke",
            "c",
        );
        let error = error.unwrap_err().to_string();
        assert!(error.contains("endpoints.revocation"), "{error}");
    }

    #[test]
    fn debug_output_shows_no_secret() {
        let url = Url::parse("https://x.example/revoke").unwrap();
        let secret = SecretText::new("s3cret-value");
        let endpoint = RevocationEndpoint::resolved(
            url,
            "client",
            &secret,
            &crate::http_client::test_client(),
        );
        assert!(!format!("{endpoint:?}").contains("s3cret-value"));
    }
}
