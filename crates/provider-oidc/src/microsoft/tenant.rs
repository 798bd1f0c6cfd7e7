//! Tenants of the Microsoft identity platform: the `tid` claim, and the issuer check of the
//! `common` endpoint, whose issuer depends on the token (docs/providers.md#microsoft-common).
//!
//! `common` serves every tenant, so no single issuer fits: the token's `iss` must be the
//! template with the token's own `tid` put in. A token of tenant A claiming tenant B's
//! issuer, or the other way round, is refused.

pub use social_login_id_token::tenant::{TENANT_PLACEHOLDER, issuer_matches, tenant_id};

/// The tenant of every personal Microsoft account (outlook.com, hotmail.com, live.com...).
pub const PERSONAL_ACCOUNT_TENANT: &str = "9188040d-6c67-4c5b-b112-36a304b66dad";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const WORK: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";
    const MICROSOFT_ISSUER_TEMPLATE: &str = "https://login.microsoftonline.com/{tenantid}/v2.0";

    /// A policy of `template`, as the issuer hook applies it.
    struct Policy(String);

    impl Policy {
        fn accepts(&self, token: Value) -> bool {
            let claims = token.as_object().unwrap();
            let iss = claims
                .get("iss")
                .and_then(Value::as_str)
                .unwrap_or_default();
            issuer_matches(&self.0, iss, claims)
        }
    }

    fn tenant_issuer_policy(template: &str) -> Policy {
        Policy(template.to_owned())
    }

    fn issuer_of(tid: &str) -> String {
        format!("https://login.microsoftonline.com/{tid}/v2.0")
    }

    #[test]
    fn the_issuer_of_the_tokens_own_tenant_is_accepted() {
        let policy = tenant_issuer_policy(MICROSOFT_ISSUER_TEMPLATE);
        for tid in [WORK, PERSONAL_ACCOUNT_TENANT] {
            assert!(policy.accepts(json!({"iss": issuer_of(tid), "tid": tid})));
        }
    }

    #[test]
    fn an_issuer_of_another_tenant_or_host_is_refused() {
        let policy = tenant_issuer_policy(MICROSOFT_ISSUER_TEMPLATE);
        let foreign = json!({"iss": issuer_of(PERSONAL_ACCOUNT_TENANT), "tid": WORK});
        assert!(!policy.accepts(foreign));
        let literal = json!({"iss": MICROSOFT_ISSUER_TEMPLATE, "tid": WORK});
        assert!(!policy.accepts(literal));
        let host = json!({"iss": format!("https://login.evil.example/{WORK}/v2.0"), "tid": WORK});
        assert!(!policy.accepts(host));
    }

    #[test]
    fn a_missing_or_malformed_tenant_id_is_refused() {
        let policy = tenant_issuer_policy(MICROSOFT_ISSUER_TEMPLATE);
        assert!(!policy.accepts(json!({"iss": issuer_of(WORK)})));
        for tid in [
            "",
            "common",
            "x/v2.0",
            "72f988bf-86f1-41af-91ab-2d7cd011db4",
            "72f988bf-86f1-41af-91ab-2d7cd011db4g",
            "72f988bf8-6f1-41af-91ab-2d7cd011db47",
            "72f988bf86f141af91ab2d7cd011db47",
            "{72f988bf-86f1-41af-91ab-2d7cd011db47}",
            "urn:uuid:72f988bf-86f1-41af-91ab-2d7cd011db47",
            "{tenantid}",
        ] {
            let token = json!({"iss": issuer_of(tid), "tid": tid});
            assert!(!policy.accepts(token), "{tid}");
        }
        assert!(!policy.accepts(json!({"iss": issuer_of("5"), "tid": 5})));
    }

    #[test]
    fn a_template_without_placeholder_is_one_fixed_tenant() {
        let policy = tenant_issuer_policy(&issuer_of(WORK));
        assert!(policy.accepts(json!({"iss": issuer_of(WORK), "tid": WORK})));
        let personal =
            json!({"iss": issuer_of(PERSONAL_ACCOUNT_TENANT), "tid": PERSONAL_ACCOUNT_TENANT});
        assert!(!policy.accepts(personal));
    }

    #[test]
    fn a_configured_template_is_filled_the_same_way() {
        let policy = tenant_issuer_policy("http://127.0.0.1:9/microsoft/{tenantid}/v2.0");
        let token =
            json!({"iss": format!("http://127.0.0.1:9/microsoft/{WORK}/v2.0"), "tid": WORK});
        assert!(policy.accepts(token));
    }
}
