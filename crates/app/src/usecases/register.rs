//! Password accounts: POST /auth/register and POST /auth/login (docs/api.md).

use crate::{AppError, AuthService, LoginResult};
use social_login_domain::admin::check_not_locked;
use social_login_domain::password::check_password;
use social_login_domain::{Email, NewUser, Origin, SecretText};
use social_login_ports::CreateUserError;
use tracing::instrument;

/// Longest display name we store.
const MAX_NAME_CHARS: usize = 200;

/// A password registration as the client sent it.
#[derive(Debug, Clone)]
pub struct Registration {
    pub email: String,
    pub password: SecretText,
    pub full_name: Option<String>,
}

impl AuthService {
    #[instrument(skip_all)]
    pub async fn register(
        &self,
        registration: Registration,
        origin: &Origin,
    ) -> Result<LoginResult, AppError> {
        // First: with sign-up off, nothing about the request matters, and nothing is read.
        if !self.policy.password_signup {
            return Err(AppError::SignupNotAllowed);
        }
        let email = Email::parse(&registration.email)
            .map_err(|_| AppError::Validation("email: not a valid email address".into()))?;
        check_password(&registration.password)
            .map_err(|weak| AppError::Validation(format!("password: {weak}")))?;
        let full_name = registration
            .full_name
            .map(|name| name.trim().to_owned())
            .filter(|name| !name.is_empty());
        if full_name.as_ref().is_some_and(|name| {
            name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control)
        }) {
            return Err(AppError::Validation(
                "full_name: at most 200 characters, no control characters".into(),
            ));
        }
        if self.ports.users.find_user_by_email(&email).await?.is_some() {
            return Err(AppError::EmailAlreadyRegistered);
        }
        let password_hash = self.ports.hasher.hash(registration.password).await?;
        let now = self.ports.clock.now();
        let user = NewUser {
            id: self.new_user_id(now),
            email: Some(email),
            full_name,
            avatar_url: None,
            // Nobody has proven they own this address yet (docs/api.md#linking-rules).
            email_verified: false,
            password_hash: Some(password_hash),
            created_at: now,
        };
        let user = self
            .ports
            .users
            .create_user(user, None, self.audit(origin, now))
            .await
            .map_err(|error| match error {
                CreateUserError::EmailTaken | CreateUserError::ProviderAccountTaken => {
                    AppError::EmailAlreadyRegistered
                }
                CreateUserError::Repository(error) => error.into(),
            })?;
        self.start_session(user, true, origin).await
    }

    /// Unknown email, wrong password and a user without password all look the same, and
    /// take the same time (the hasher burns a dummy verification). Each attempt counts
    /// against the email's throttle first (429 past it, whatever the password).
    #[instrument(skip_all)]
    pub async fn password_login(
        &self,
        email: &str,
        password: SecretText,
        origin: &Origin,
    ) -> Result<LoginResult, AppError> {
        let attempts = self.count_login_attempt(email).await?;
        let user = match Email::parse(email) {
            Ok(email) => self.ports.users.find_user_by_email(&email).await?,
            Err(_) => None,
        };
        let hash = user.as_ref().and_then(|user| user.password_hash.clone());
        let valid = self.ports.hasher.verify(password, hash).await?;
        match user {
            Some(user) if valid => {
                self.clear_login_attempts(attempts).await?;
                // Told only to whoever knows the password.
                check_not_locked(&user).map_err(|_| AppError::UserLocked)?;
                self.start_session(user, false, origin).await
            }
            _ => Err(AppError::InvalidCredentials),
        }
    }
}
