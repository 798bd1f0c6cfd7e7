//! The opaque cursor of `GET /admin/users`: where the next page starts (after the last
//! user listed, by id). Clients pass it back as they got it and read nothing into it.

use crate::http::error::ApiError;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use social_login_domain::UserId;

pub fn encode(last: UserId) -> String {
    URL_SAFE_NO_PAD.encode(last.as_uuid().as_bytes())
}

/// 422 for anything [`encode`] did not write.
pub fn decode(cursor: &str) -> Result<UserId, ApiError> {
    let bad = || ApiError::validation("cursor: not a cursor from this API");
    let bytes: [u8; 16] = URL_SAFE_NO_PAD
        .decode(cursor)
        .map_err(|_| bad())?
        .try_into()
        .map_err(|_| bad())?;
    Ok(UserId::from_uuid(uuid::Uuid::from_bytes(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_and_anything_else_is_refused() {
        let id = UserId::new();
        assert_eq!(decode(&encode(id)).unwrap(), id);
        for bad in [
            "",
            "abc",
            "!!!!",
            &encode(id)[..20],
            &format!("{}AA", encode(id)),
        ] {
            assert!(decode(bad).is_err(), "{bad}");
        }
    }
}
