//! The last-login-method check (docs/api.md#disconnect): a user must keep one way to log in.

use crate::{LinkedAccount, LinkedAccountId, ProviderKey, User};

/// Why a disconnect is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DisconnectRefused {
    #[error("provider is not linked to this user")]
    NotLinked,
    #[error("user would have no way left to log in")]
    LastLoginMethod,
}

/// Returns the link to remove, or why it may not go. `links` are all of the user's links;
/// `usable` are the providers enabled now: a link to a disabled provider is no way to log
/// in, nor is one whose account its provider reported disabled, so neither counts as one
/// that remains.
pub fn check_disconnect(
    user: &User,
    links: &[LinkedAccount],
    provider: ProviderKey,
    usable: &[ProviderKey],
) -> Result<LinkedAccountId, DisconnectRefused> {
    let target = links
        .iter()
        .find(|link| link.provider == provider && link.user_id == user.id)
        .ok_or(DisconnectRefused::NotLinked)?;
    let other_links = links
        .iter()
        .filter(|link| link.id != target.id && !link.disabled)
        .filter(|link| usable.contains(&link.provider))
        .count();
    if !user.has_password() && other_links == 0 {
        return Err(DisconnectRefused::LastLoginMethod);
    }
    Ok(target.id)
}

#[cfg(test)]
mod tests {
    use super::DisconnectRefused::{LastLoginMethod, NotLinked};
    use super::*;
    use crate::ProviderKey as P;
    use crate::test_fixtures::{link, user};

    /// A user (with a password or not) linked to `linked`, disconnecting `provider` while
    /// `usable` are enabled: the index in `linked` of the link that goes, or the refusal.
    fn disconnect(
        password: bool,
        linked: &[ProviderKey],
        provider: ProviderKey,
        usable: &[ProviderKey],
    ) -> Result<usize, DisconnectRefused> {
        let user = user(password);
        let links: Vec<_> = linked.iter().map(|key| link(&user, *key)).collect();
        let gone = check_disconnect(&user, &links, provider, usable)?;
        Ok(links.iter().position(|link| link.id == gone).unwrap())
    }

    #[test]
    fn a_user_keeps_one_way_to_log_in_with_every_provider_enabled() {
        let cases: [(bool, &[ProviderKey], ProviderKey, _); 4] = [
            // The only link of a user without password stays.
            (false, &[P::GITHUB], P::GITHUB, Err(LastLoginMethod)),
            // The only link may go when the user has a password.
            (true, &[P::GITHUB], P::GITHUB, Ok(0)),
            // One of two links may go.
            (false, &[P::GITHUB, P::GOOGLE], P::GOOGLE, Ok(1)),
            // A provider that is not linked is not found.
            (true, &[P::GITHUB], P::APPLE, Err(NotLinked)),
        ];
        for (password, linked, provider, expected) in cases {
            let outcome = disconnect(password, linked, provider, &P::BUILT_IN);
            let case = format!("password {password}, {linked:?}, {provider}");
            assert_eq!(outcome, expected, "{case}");
        }
    }

    #[test]
    fn a_link_to_a_disabled_provider_is_no_remaining_way_to_log_in() {
        let linked = [P::GITHUB, P::GOOGLE];
        let outcome = disconnect(false, &linked, P::GITHUB, &[P::GITHUB]);
        assert_eq!(outcome, Err(LastLoginMethod));
    }

    #[test]
    fn a_link_whose_account_its_provider_disabled_is_no_remaining_way_to_log_in() {
        let user = user(false);
        let github = link(&user, P::GITHUB);
        let mut google = link(&user, P::GOOGLE);
        google.disabled = true;
        let links = [github, google];
        let outcome = check_disconnect(&user, &links, P::GITHUB, &P::BUILT_IN);
        assert_eq!(outcome, Err(LastLoginMethod));
    }

    #[test]
    fn another_users_link_does_not_count() {
        let user = user(false);
        let stranger = super::tests::user(false);
        let links = [link(&stranger, ProviderKey::GITHUB)];
        assert_eq!(
            check_disconnect(&user, &links, ProviderKey::GITHUB, &ProviderKey::BUILT_IN),
            Err(DisconnectRefused::NotLinked)
        );
    }
}
