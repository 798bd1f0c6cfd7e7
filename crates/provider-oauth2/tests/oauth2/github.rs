//! GitHub's own behaviour: the separate emails endpoint and what it vouches for, the API
//! headers, the settings it checks.

mod emails;
mod identity;
mod revocation;
mod settings;
mod support;
