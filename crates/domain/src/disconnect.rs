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
/// in, so it does not count as one that remains.
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
        .filter(|link| link.id != target.id && usable.contains(&link.provider))
        .count();
    if !user.has_password() && other_links == 0 {
        return Err(DisconnectRefused::LastLoginMethod);
    }
    Ok(target.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_fixtures::{link, user};

    #[test]
    fn the_only_link_of_a_user_without_password_stays() {
        let user = user(false);
        let links = [link(&user, ProviderKey::GITHUB)];
        assert_eq!(
            check_disconnect(&user, &links, ProviderKey::GITHUB, &ProviderKey::BUILT_IN),
            Err(DisconnectRefused::LastLoginMethod)
        );
    }

    #[test]
    fn the_only_link_may_go_when_the_user_has_a_password() {
        let user = user(true);
        let links = [link(&user, ProviderKey::GITHUB)];
        assert_eq!(
            check_disconnect(&user, &links, ProviderKey::GITHUB, &ProviderKey::BUILT_IN),
            Ok(links[0].id)
        );
    }

    #[test]
    fn one_of_two_links_may_go() {
        let user = user(false);
        let links = [
            link(&user, ProviderKey::GITHUB),
            link(&user, ProviderKey::GOOGLE),
        ];
        assert_eq!(
            check_disconnect(&user, &links, ProviderKey::GOOGLE, &ProviderKey::BUILT_IN),
            Ok(links[1].id)
        );
    }

    #[test]
    fn a_link_to_a_disabled_provider_is_no_remaining_way_to_log_in() {
        let user = user(false);
        let links = [
            link(&user, ProviderKey::GITHUB),
            link(&user, ProviderKey::GOOGLE),
        ];
        assert_eq!(
            check_disconnect(&user, &links, ProviderKey::GITHUB, &[ProviderKey::GITHUB]),
            Err(DisconnectRefused::LastLoginMethod)
        );
    }

    #[test]
    fn a_provider_that_is_not_linked_is_not_found() {
        let user = user(true);
        let links = [link(&user, ProviderKey::GITHUB)];
        assert_eq!(
            check_disconnect(&user, &links, ProviderKey::APPLE, &ProviderKey::BUILT_IN),
            Err(DisconnectRefused::NotLinked)
        );
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
