//! Microsoft's own behaviour on `common`: subjects scoped by tenant, the issuer of each
//! token's own tenant, emails verified only when Microsoft vouches for them (nOAuth).

mod sign_in;
mod support;
mod tenants;
