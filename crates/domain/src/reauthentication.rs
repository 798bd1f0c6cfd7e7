//! Recent login: what an irreversible or account-widening action needs besides a valid
//! bearer token (account deletion, linking another provider account).
//!
//! A session remembers when its login happened (`auth_time`); a refresh keeps it, because a
//! refresh proves possession of a token, not of the account. So a stolen refresh or access
//! token keeps a session alive but cannot delete the account or link the thief's own
//! provider account, which would turn a stolen session into a permanent login.

use time::{Duration, OffsetDateTime};

/// How recent the login must be by default: five minutes.
pub const DEFAULT_REAUTHENTICATION_WINDOW: Duration = Duration::minutes(5);

/// The login behind the token is too old (or unknown) for this action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a recent login is required")]
pub struct ReauthenticationRequired;

/// Allows the action when the login happened at most `window` before `now`.
///
/// `auth_time` is `None` for an access token issued before tokens carried it: it is still
/// a valid token, but nothing says when its login was, so it is not recent.
pub fn require_recent_login(
    auth_time: Option<OffsetDateTime>,
    now: OffsetDateTime,
    window: Duration,
) -> Result<(), ReauthenticationRequired> {
    match auth_time {
        Some(at) if now - at <= window => Ok(()),
        _ => Err(ReauthenticationRequired),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: Duration = DEFAULT_REAUTHENTICATION_WINDOW;

    fn login() -> OffsetDateTime {
        OffsetDateTime::UNIX_EPOCH + Duration::days(20_000)
    }

    #[test]
    fn a_login_within_the_window_is_recent_up_to_its_last_second() {
        assert_eq!(require_recent_login(Some(login()), login(), WINDOW), Ok(()));
        assert_eq!(
            require_recent_login(Some(login()), login() + WINDOW, WINDOW),
            Ok(())
        );
    }

    #[test]
    fn a_login_older_than_the_window_is_not() {
        assert_eq!(
            require_recent_login(
                Some(login()),
                login() + WINDOW + Duration::seconds(1),
                WINDOW
            ),
            Err(ReauthenticationRequired)
        );
    }

    #[test]
    fn a_token_that_does_not_say_when_its_login_was_is_never_recent() {
        assert_eq!(
            require_recent_login(None, login(), WINDOW),
            Err(ReauthenticationRequired)
        );
    }
}
