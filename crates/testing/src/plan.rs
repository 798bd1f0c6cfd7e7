//! Applying the domain's write plans to the in-memory tables, with the checks the schema
//! makes: the one place this store writes what a rule decided.

use crate::repository::{Family, Tables, Token};
use social_login_domain::SealedTokens;
use social_login_domain::plan::{LinkRefresh, Write, WritePlan};
use social_login_domain::relay::GrantRenewal;
use social_login_domain::{LinkedAccountId, NewLinkedAccount, UserId};
use social_login_ports::repository_error::Taken;
use social_login_ports::{PlanError, RepositoryError};
use std::collections::HashSet;

impl Tables {
    /// Applies `plan`'s writes in order, then records its events. Called inside
    /// [`crate::InMemoryRepository::transact`], so a plan that fails halfway leaves nothing.
    pub(crate) fn apply(&mut self, plan: WritePlan) -> Result<(), PlanError> {
        for write in plan.writes {
            self.write(write)?;
        }
        for event in plan.events {
            self.record(event, plan.outbox)?;
        }
        Ok(())
    }

    fn write(&mut self, write: Write) -> Result<(), PlanError> {
        match write {
            Write::InsertUser(user) => {
                if user
                    .claimed_email()
                    .is_some_and(|email| self.claimant(email).is_some())
                {
                    return Err(PlanError::Taken(Taken::Email));
                }
                self.users.push(user);
            }
            Write::InsertLink(link) => {
                if self.user(link.user_id).is_none() {
                    return Err(PlanError::Gone);
                }
                if self.account_taken(&link) {
                    return Err(PlanError::Taken(Taken::ProviderAccount));
                }
                if self.provider_taken(&link) {
                    return Err(PlanError::Taken(Taken::UserProvider));
                }
                self.links.push(link);
            }
            Write::RefreshLink(refresh) => self.refresh_link(refresh)?,
            Write::RenewGrant(renewal) => self.renew_grant(renewal)?,
            Write::DeleteLink(link) => self.links.retain(|stored| stored.id != link),
            Write::DeleteUser(user) => self.delete_user(user),
            Write::SetLocked { user, locked } => {
                if let Some(stored) = self.users.iter_mut().find(|stored| stored.id == user) {
                    stored.locked = locked;
                }
            }
            Write::ForgetProfile(user) => {
                if let Some(stored) = self.users.iter_mut().find(|stored| stored.id == user) {
                    stored.forget_profile();
                }
            }
            Write::RevokeSessions { user, began_with } => self.revoke_sessions_of(user, began_with),
            Write::ForgetTokens { link, .. } => {
                self.links
                    .iter_mut()
                    .filter(|stored| stored.id == link)
                    .for_each(forget_tokens);
            }
            Write::ForgetRefusedGrant { link, seen, .. } => {
                let current = (self.links.iter_mut())
                    .find(|stored| stored.id == link && stored.tokens.access_token == seen);
                forget_tokens(current.ok_or(PlanError::Gone)?);
                self.refresh_leases.remove(&link);
            }
            Write::SetDisabled { link, disabled, at } => {
                self.disabled_changed.insert(link, at);
                if disabled {
                    self.disabled.insert(link);
                } else {
                    self.disabled.remove(&link);
                }
            }
            Write::StartSession { session, first } => {
                self.check_session(&first)?;
                self.families.insert(
                    first.family,
                    Family {
                        user: first.user_id,
                        created_at: first.created_at,
                        ends_at: session.family_expires_at,
                        auth_time: session.auth_time,
                        began_with: Some(session.began_with),
                    },
                );
                self.tokens.insert(first.hash, Token::unused(&first));
            }
            Write::MarkTokenUsed(hash) => {
                if let Some(token) = self.tokens.get_mut(&hash) {
                    token.used = true;
                }
            }
            Write::DeleteToken(hash) => {
                self.tokens.remove(&hash);
            }
            Write::InsertToken(token) => {
                if self.tokens.contains_key(&token.hash) {
                    return Err(RepositoryError::Internal("duplicate key".into()).into());
                }
                self.tokens.insert(token.hash, Token::unused(&token));
            }
            Write::RevokeFamily(family) => {
                self.revoked.insert(family);
            }
        }
        Ok(())
    }

    /// A link gone or disabled since it was read is a conflict.
    fn refresh_link(&mut self, refresh: LinkRefresh) -> Result<(), PlanError> {
        let stored = updatable_link(&mut self.links, &self.disabled, refresh.link, |_| true)?;
        stored.email = refresh.email;
        if let Some((access_token, client_id)) = refresh.access_token {
            stored.tokens.access_token = access_token;
            stored.tokens.client_id = client_id;
            stored.tokens.access_expires_at = refresh.access_expires_at;
            self.refresh_leases.remove(&refresh.link);
        }
        if let Some(refresh_token) = refresh.refresh_token {
            stored.tokens.refresh_token = Some(refresh_token);
        }
        if let Some(scopes) = refresh.scopes {
            stored.tokens.scopes = scopes;
        }
        Ok(())
    }

    /// A relay refresh's tokens, only over the access token it began from (as the
    /// database's conditional update); its lease ends.
    fn renew_grant(&mut self, renewal: GrantRenewal) -> Result<(), PlanError> {
        let began_from = |stored: &NewLinkedAccount| stored.tokens.access_token == renewal.seen;
        let stored = updatable_link(&mut self.links, &self.disabled, renewal.link, began_from)?;
        let tokens = renewal.tokens;
        stored.tokens.access_token = tokens.access_token;
        stored.tokens.access_expires_at = tokens.access_expires_at;
        if let Some(refresh_token) = tokens.refresh_token {
            stored.tokens.refresh_token = Some(refresh_token);
        }
        if !tokens.scopes.as_str().is_empty() {
            stored.tokens.scopes = tokens.scopes;
        }
        self.refresh_leases.remove(&renewal.link);
        Ok(())
    }

    /// As ON DELETE CASCADE: the user's links, sessions and tokens go with it.
    fn delete_user(&mut self, user: UserId) {
        self.users.retain(|kept| kept.id != user);
        self.links.retain(|link| link.user_id != user);
        self.tokens.retain(|_, token| token.user_id != user);
        self.families.retain(|_, family| family.user != user);
    }
}

/// The link `id` as a conditional update finds it: `Gone` when it went, its provider
/// reported it disabled, or it fails `matches` since it was read, as the database's update
/// then finds no row.
fn updatable_link<'a>(
    links: &'a mut [NewLinkedAccount],
    disabled: &HashSet<LinkedAccountId>,
    id: LinkedAccountId,
    matches: impl Fn(&NewLinkedAccount) -> bool,
) -> Result<&'a mut NewLinkedAccount, PlanError> {
    if disabled.contains(&id) {
        return Err(PlanError::Gone);
    }
    links
        .iter_mut()
        .find(|stored| stored.id == id && matches(stored))
        .ok_or(PlanError::Gone)
}

/// The link without its provider tokens (the empty access token is "none").
pub(crate) fn forget_tokens(stored: &mut NewLinkedAccount) {
    stored.tokens = SealedTokens::none();
}
