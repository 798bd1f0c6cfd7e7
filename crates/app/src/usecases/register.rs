//! Password accounts: POST /auth/register and POST /auth/login (docs/api.md).

use crate::usecases::login_throttle::AdmittedAttempt;
use crate::{AppError, AppResult, AuthService, LoginResult};
use social_login_domain::admin::check_not_locked;
use social_login_domain::password::check_password;
use social_login_domain::{Email, LoginMethod, Origin, SecretText, User, given_name};
use social_login_ports::CreateUserError;
use social_login_ports::UserCreation;
use time::Duration;
use tracing::instrument;

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
    ) -> AppResult<LoginResult> {
        // First: with sign-up off, nothing about the request matters, and nothing is read.
        if !self.policy.password_signup {
            return Err(AppError::SignupNotAllowed);
        }
        let email = Email::parse(&registration.email)
            .map_err(|_| AppError::Validation("email: not a valid email address".into()))?;
        check_password(&registration.password)
            .map_err(|weak| AppError::Validation(format!("password: {weak}")))?;
        let full_name = given_name(registration.full_name)
            .map_err(|bad| AppError::Validation(format!("full_name: {bad}")))?;
        if self.ports.users.find_user_by_email(&email).await?.is_some() {
            return Err(AppError::EmailAlreadyRegistered);
        }
        let password_hash = self.ports.hasher.hash(registration.password).await?;
        let now = self.ports.clock.now();
        let id = self.new_user_id(now);
        let user = User::with_password(id, email, full_name, password_hash, now);
        // The user and its first session in one transaction: never an account whose
        // registration answered an error.
        let (session, refresh_token) = self.new_session(now, LoginMethod::Password);
        let family = session.family;
        let user = self
            .ports
            .users
            .create_user(UserCreation {
                user,
                first_link: None,
                first_session: Some(session),
                audit: self.audit(origin, now),
            })
            .await
            .map_err(|error| match error {
                CreateUserError::EmailTaken | CreateUserError::ProviderAccountTaken => {
                    AppError::EmailAlreadyRegistered
                }
                CreateUserError::Repository(error) => error.into(),
            })?;
        self.login_result(user, true, (family, refresh_token), now)
    }

    /// Unknown email, wrong password and a user without password all look the same, and
    /// take the same time (the hasher burns a dummy verification); text that is no email
    /// cannot be an account and is refused at once, uncounted. Each attempt is judged by the
    /// throttle first (429 past this client's failures for the account, whatever the
    /// password; slowed past the account's failures from anywhere).
    #[instrument(skip_all)]
    pub async fn password_login(
        &self,
        email: &str,
        password: SecretText,
        origin: &Origin,
    ) -> PacedLogin {
        let Ok(email) = Email::parse(email) else {
            return PacedLogin::now(Err(AppError::InvalidCredentials));
        };
        let attempt = match self.admit_login_attempt(&email, origin).await {
            Ok(attempt) => attempt,
            Err(refused) => return PacedLogin::now(Err(refused)),
        };
        PacedLogin {
            outcome: self
                .check_password(&email, password, &attempt, origin)
                .await,
            delay: attempt.delay,
        }
    }

    async fn check_password(
        &self,
        email: &Email,
        password: SecretText,
        attempt: &AdmittedAttempt,
        origin: &Origin,
    ) -> AppResult<LoginResult> {
        let user = self.ports.users.find_user_by_email(email).await?;
        let hash = user.as_ref().and_then(|user| user.password_hash.clone());
        let valid = self.ports.hasher.verify(password, hash).await?;
        match user {
            Some(user) if valid => {
                self.login_attempt_succeeded(attempt).await?;
                // Told only to whoever knows the password.
                check_not_locked(&user).map_err(|_| AppError::UserLocked)?;
                self.start_session(user, origin).await
            }
            user => {
                let user = user.map(|user| user.id);
                self.login_attempt_failed(attempt, email, user, origin)
                    .await?;
                Err(AppError::InvalidCredentials)
            }
        }
    }
}

/// A password login's outcome, and how long to wait before answering it: past the
/// account's failures from anywhere every attempt is slowed, never refused
/// (docs/api.md#password-login-throttle). The caller waits; the use case holds nothing.
#[derive(Debug)]
pub struct PacedLogin {
    pub outcome: AppResult<LoginResult>,
    /// Zero unless the attempt is slowed.
    pub delay: Duration,
}

impl PacedLogin {
    fn now(outcome: AppResult<LoginResult>) -> Self {
        Self {
            outcome,
            delay: Duration::ZERO,
        }
    }
}
