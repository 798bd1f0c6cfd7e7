//! Issuers that name their tenant: a template with `{tenantid}` in it, filled from the
//! token's own `tid` (the Microsoft identity platform's `common` issuer, and the issuer each
//! of its keys signs for).

use serde_json::{Map, Value};

/// The placeholder of an issuer template (`https://login.microsoftonline.com/{tenantid}/v2.0`).
pub const TENANT_PLACEHOLDER: &str = "{tenantid}";

/// Whether `iss` equals `template` with [`TENANT_PLACEHOLDER`] replaced by the token's `tid`.
/// A template without the placeholder is one fixed issuer (a single-tenant app), and the
/// token must still carry a well-formed `tid`.
pub fn issuer_matches(template: &str, iss: &str, claims: &Map<String, Value>) -> bool {
    tenant_id(claims).is_some_and(|tid| iss == template.replace(TENANT_PLACEHOLDER, tid))
}

/// The token's `tid`, when it is a GUID: Microsoft's tenant ids always are, and anything
/// else (a `/`, an empty string) must not be spliced into an issuer URL.
pub fn tenant_id(claims: &Map<String, Value>) -> Option<&str> {
    claims.get("tid")?.as_str().filter(|tid| is_guid(tid))
}

/// `8-4-4-4-12` hexadecimal digits.
fn is_guid(text: &str) -> bool {
    // Of the forms uuid parses, only the hyphenated one is 36 characters long.
    text.len() == 36 && uuid::Uuid::try_parse(text).is_ok()
}
