//! Provider declarations: what a provider is, as data (endpoints, scopes, PKCE, token
//! authentication, claim pointers, id_token and revocation rules), and the eight built-in
//! ones (`built_in.toml`); a provider from configuration becomes one too ([`GenericProvider`]).
//! No I/O: the adapters and the simulator read these.

mod built_in;
mod catalogue;
mod check;
mod claims;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
mod generic;
mod header;
pub mod knobs;
mod spec;
mod tenant;

pub use built_in::{built_in, built_in_spec};
pub use catalogue::{catalogue, preset, presets};
pub use check::{NEEDS, SpecProblem};
pub use generic::{GenericProvider, Published};
pub use header::{is_header_name, is_header_value};
/// The kind of a provider, from the domain: the declarations and the settings share it.
pub use social_login_domain::ProviderKind;
pub use spec::{
    AlreadyGone, Claims, EmailTrust, EmailVerified, Endpoints, IdTokenRules, NonceRule,
    ProviderSpec, RevocationAuth, RevocationRules, RevokedToken, TOKEN_MEMBERS, TOKEN_RESPONSE,
    TokenAuth, is_claim_pointer, is_json_pointer,
};
pub use tenant::{DOMAIN, ISSUER, Tenant};
