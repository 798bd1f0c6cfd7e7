//! X's own behaviour: public clients, codes that live 30 seconds, the email only with
//! `users.email`, and `/2/users/me` failures.

mod failures;
mod identity;
mod revocation;
mod support;
