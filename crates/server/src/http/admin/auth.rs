//! Who calls `/admin/...`: a configured admin key, and nothing else. A user's access token
//! is no admin key (it hashes to no configured hash), whatever it says. A client that
//! presented ten wrong keys in a minute is 429 until the minute is over (the state store
//! counts, so across instances).

use super::Operator;
use crate::http::AppState;
use crate::http::error::ApiError;
use crate::http::extract::{RequestOrigin, bearer_token};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use social_login_domain::{ErrorCode, Origin};

/// The operator API and where the request came from, with the id of the key that made it
/// (what its events record); 401 `Unauthorized` without a configured key.
pub struct AdminCaller(pub Operator, pub Origin);

impl FromRequestParts<AppState> for AdminCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        // The routes exist only with an operator; without one this is no endpoint at all.
        let operator = state
            .operator
            .clone()
            .ok_or_else(|| ApiError::of(ErrorCode::NotFound))?;
        let Ok(RequestOrigin(origin)) = RequestOrigin::from_request_parts(parts, state).await;
        let presented = || bearer_token(parts).and_then(|key| operator.keys.verify(key));
        match state.service.checked_key(&origin, presented).await? {
            Some(key) => Ok(Self(operator, origin.by_admin(key))),
            None => Err(ApiError::new(
                ErrorCode::Unauthorized,
                "a valid admin key is required",
            )),
        }
    }
}
