//! The lookups and conditional writes of the login, session and housekeeping paths, built
//! in one place so a test can show each one uses an index (`EXPLAIN` on SQLite and
//! PostgreSQL): a million users must not slow a login down.

use crate::entity::{
    audit_event, linked_account, refresh_family, refresh_token, signal_receipt, user,
    webhook_outbox,
};
use sea_orm::sea_query::{Expr, ExprTrait, Query, SimpleExpr};
use sea_orm::{
    ColumnTrait, DeleteMany, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Select, SelectTwo,
    UpdateMany,
};
use social_login_domain::refresh::RefreshTokenHash;
use social_login_domain::session_list::MAX_SESSIONS_READ;
use social_login_domain::{
    FamilyId, LinkedAccountId, LoginMethod, ProviderKey, ProviderSubject, SealedToken, SignalId,
    SignalSource, UserEvents, UserId,
};
use time::OffsetDateTime;
use uuid::Uuid;

/// The link of a provider account with its user (unique index on provider, subject).
pub(crate) fn link_with_user(
    provider: ProviderKey,
    subject: &ProviderSubject,
) -> SelectTwo<linked_account::Entity, user::Entity> {
    link(provider, subject).find_also_related(user::Entity)
}

/// The link of a provider account.
pub(crate) fn link(
    provider: ProviderKey,
    subject: &ProviderSubject,
) -> Select<linked_account::Entity> {
    linked_account::Entity::find()
        .filter(linked_account::Column::Provider.eq(provider.as_str()))
        .filter(linked_account::Column::Subject.eq(subject.as_str()))
}

/// The user who claims a normalised email (unique index).
pub(crate) fn user_by_email(normalized: &str) -> Select<user::Entity> {
    user::Entity::find().filter(user::Column::EmailNormalized.eq(normalized))
}

pub(crate) fn user_by_id(id: UserId) -> Select<user::Entity> {
    user::Entity::find_by_id(id.as_uuid())
}

/// A user's links (index on user_id).
pub(crate) fn links_of(user: UserId) -> Select<linked_account::Entity> {
    linked_account::Entity::find().filter(linked_account::Column::UserId.eq(user.as_uuid()))
}

/// The columns a returning login rewrites, for one link (primary key).
pub(crate) fn update_link(id: LinkedAccountId) -> UpdateMany<linked_account::Entity> {
    linked_account::Entity::update_many().filter(linked_account::Column::Id.eq(id.as_uuid()))
}

/// Ends the refresh lease on `link`, only while the link still holds the access token
/// `seen` (the one the refresh began from).
pub(crate) fn release_lease(
    link: LinkedAccountId,
    seen: &SealedToken,
) -> UpdateMany<linked_account::Entity> {
    update_link(link)
        .col_expr(
            linked_account::Column::RefreshLeaseUntilMs,
            Expr::value(Option::<i64>::None),
        )
        .filter(linked_account::Column::AccessToken.eq(seen.as_str()))
}

pub(crate) fn delete_token(hash: RefreshTokenHash) -> DeleteMany<refresh_token::Entity> {
    refresh_token::Entity::delete_many()
        .filter(refresh_token::Column::TokenHash.eq(hash.0.to_vec()))
}

pub(crate) fn family(id: Uuid) -> Select<refresh_family::Entity> {
    refresh_family::Entity::find_by_id(id)
}

pub(crate) fn mark_used(hash: RefreshTokenHash) -> UpdateMany<refresh_token::Entity> {
    refresh_token::Entity::update_many()
        .col_expr(refresh_token::Column::Used, Expr::value(true))
        .filter(refresh_token::Column::TokenHash.eq(hash.0.to_vec()))
}

pub(crate) fn revoke_family(family: FamilyId) -> UpdateMany<refresh_family::Entity> {
    refresh_family::Entity::update_many()
        .col_expr(refresh_family::Column::Revoked, Expr::value(true))
        .filter(refresh_family::Column::Id.eq(family.as_uuid()))
}

/// Revokes the live sessions of a user (index on user_id): those `began_with` began, or all
/// of them.
pub(crate) fn revoke_sessions_of(
    user: UserId,
    began_with: Option<LoginMethod>,
) -> UpdateMany<refresh_family::Entity> {
    let update = refresh_family::Entity::update_many()
        .col_expr(refresh_family::Column::Revoked, Expr::value(true))
        .filter(refresh_family::Column::UserId.eq(user.as_uuid()))
        .filter(refresh_family::Column::Revoked.eq(false));
    match began_with {
        Some(method) => update.filter(refresh_family::Column::BeganWith.eq(method.as_str())),
        None => update,
    }
}

/// Up to `limit` users by id after `after` (primary key range).
pub(crate) fn users_after(after: Uuid, limit: u64) -> Select<user::Entity> {
    user::Entity::find()
        .filter(user::Column::Id.gt(after))
        .order_by_asc(user::Column::Id)
        .limit(limit)
}

/// The user who claims a normalised email, if its id is after `after` (unique index).
pub(crate) fn users_by_email_after(
    normalized: &str,
    after: Uuid,
    limit: u64,
) -> Select<user::Entity> {
    user_by_email(normalized)
        .filter(user::Column::Id.gt(after))
        .order_by_asc(user::Column::Id)
        .limit(limit)
}

/// Up to `limit` users with a link of `provider` (of one account when `subject` is given),
/// by user id after `after`: the index on (provider, user_id), or the unique one on
/// (provider, subject).
pub(crate) fn linked_users_after(
    provider: ProviderKey,
    subject: Option<&ProviderSubject>,
    after: Uuid,
    limit: u64,
) -> SelectTwo<linked_account::Entity, user::Entity> {
    let links = linked_account::Entity::find()
        .filter(linked_account::Column::Provider.eq(provider.as_str()));
    let links = match subject {
        Some(subject) => links.filter(linked_account::Column::Subject.eq(subject.as_str())),
        None => links,
    };
    links
        .filter(linked_account::Column::UserId.gt(after))
        .order_by_asc(linked_account::Column::UserId)
        .limit(limit)
        .find_also_related(user::Entity)
}

/// A user's sessions neither revoked nor ended at `now` (index on user_id).
pub(crate) fn active_sessions_of(
    user: UserId,
    now: OffsetDateTime,
) -> Select<refresh_family::Entity> {
    refresh_family::Entity::find()
        .filter(refresh_family::Column::UserId.eq(user.as_uuid()))
        .filter(refresh_family::Column::Revoked.eq(false))
        .filter(refresh_family::Column::ExpiresAt.gt(now))
}

/// A user's newest unrevoked sessions, at most [`MAX_SESSIONS_READ`]: read in the order of
/// the index on `(user_id, created_at)`, without sorting the older ones.
pub(crate) fn newest_sessions_of(user: UserId) -> Select<refresh_family::Entity> {
    refresh_family::Entity::find()
        .filter(refresh_family::Column::UserId.eq(user.as_uuid()))
        .filter(refresh_family::Column::Revoked.eq(false))
        .order_by_desc(refresh_family::Column::CreatedAt)
        .limit(MAX_SESSIONS_READ)
}

/// When each token of `families` was issued (index on `family_id`).
pub(crate) fn tokens_issued_of(
    families: impl IntoIterator<Item = Uuid>,
) -> Select<refresh_token::Entity> {
    refresh_token::Entity::find()
        .select_only()
        .column(refresh_token::Column::FamilyId)
        .column(refresh_token::Column::CreatedAt)
        .filter(refresh_token::Column::FamilyId.is_in(families))
}

/// Locks or unlocks one user (primary key).
pub(crate) fn set_locked(user: UserId, locked: bool) -> UpdateMany<user::Entity> {
    user::Entity::update_many()
        .col_expr(user::Column::Locked, Expr::value(locked))
        .filter(user::Column::Id.eq(user.as_uuid()))
}

/// `User::forget_profile` of `user`.
pub(crate) fn forget_profile(user: UserId) -> UpdateMany<user::Entity> {
    let none = || Expr::value(Option::<String>::None);
    user::Entity::update_many()
        .col_expr(user::Column::Email, none())
        .col_expr(user::Column::EmailNormalized, none())
        .col_expr(user::Column::EmailVerified, Expr::value(false))
        .col_expr(user::Column::FullName, none())
        .col_expr(user::Column::AvatarUrl, none())
        .filter(user::Column::Id.eq(user.as_uuid()))
}

/// The receipt of one signal (primary key).
pub(crate) fn receipt(source: SignalSource, id: &SignalId) -> Select<signal_receipt::Entity> {
    signal_receipt::Entity::find_by_id((source.as_str().to_owned(), id.as_str().to_owned()))
}

/// Deletes up to `limit` receipts received before `before_ms` (index on received_ms).
pub(crate) fn delete_receipts_before(
    before_ms: i64,
    limit: u64,
) -> DeleteMany<signal_receipt::Entity> {
    let old = Query::select()
        .columns([
            signal_receipt::Column::Source,
            signal_receipt::Column::SignalId,
        ])
        .from(signal_receipt::Entity)
        .and_where(signal_receipt::Column::ReceivedMs.lt(before_ms))
        .limit(limit)
        .to_owned();
    signal_receipt::Entity::delete_many().filter(
        Expr::tuple([
            Expr::col(signal_receipt::Column::Source),
            Expr::col(signal_receipt::Column::SignalId),
        ])
        .in_subquery(old),
    )
}

/// A user's most recent audit events, newest first (index on user_id, id).
pub(crate) fn events_of(query: UserEvents) -> Select<audit_event::Entity> {
    let mut find =
        audit_event::Entity::find().filter(audit_event::Column::UserId.eq(query.user.as_uuid()));
    if let Some(hidden) = query.view.hidden() {
        find = find.filter(audit_event::Column::Type.ne(hidden.as_str()));
    }
    find.order_by_desc(audit_event::Column::Id)
        .limit(query.limit)
}

/// Up to `limit` families that ended before `now` (index on expires_at).
pub(crate) fn ended_families(now: OffsetDateTime, limit: u64) -> Select<refresh_family::Entity> {
    refresh_family::Entity::find()
        .select_only()
        .column(refresh_family::Column::Id)
        .filter(refresh_family::Column::ExpiresAt.lt(now))
        .limit(limit)
}

pub(crate) fn delete_tokens_of(families: Vec<Uuid>) -> DeleteMany<refresh_token::Entity> {
    refresh_token::Entity::delete_many().filter(refresh_token::Column::FamilyId.is_in(families))
}

pub(crate) fn delete_families(families: Vec<Uuid>) -> DeleteMany<refresh_family::Entity> {
    refresh_family::Entity::delete_many().filter(refresh_family::Column::Id.is_in(families))
}

/// Deletes up to `limit` tokens that expired before `now` (index on expires_at).
pub(crate) fn delete_expired_tokens(
    now: OffsetDateTime,
    limit: u64,
) -> DeleteMany<refresh_token::Entity> {
    let expired = refresh_token::Column::ExpiresAt.lt(now);
    delete_up_to(refresh_token::Column::TokenHash, expired, limit)
}

/// Deletes up to `limit` audit events older than `before` (primary key: ids are
/// time-ordered, so "older" is "smaller id", exact on both databases) that the webhook
/// outbox no longer holds: a pending event or a dead letter keeps its event until the
/// outbox lets it go (the outbox's unique index on `event_id`).
pub(crate) fn delete_events_before(
    before: OffsetDateTime,
    limit: u64,
) -> DeleteMany<audit_event::Entity> {
    let bound = social_login_domain::AuditEventId::at(before, [0; 8]).as_uuid();
    let queued = Query::select()
        .expr(Expr::val(1))
        .from(webhook_outbox::Entity)
        .and_where(
            Expr::col((webhook_outbox::Entity, webhook_outbox::Column::EventId))
                .equals((audit_event::Entity, audit_event::Column::Id)),
        )
        .to_owned();
    let unqueued = Expr::exists(queued).not();
    delete_up_to(
        audit_event::Column::Id,
        audit_event::Column::Id.lt(bound).and(unqueued),
        limit,
    )
}

/// Deletes up to `limit` rows meeting `condition`, picked by their `key` in a subquery (a
/// DELETE takes no LIMIT on PostgreSQL).
fn delete_up_to<E: EntityTrait>(
    key: E::Column,
    condition: SimpleExpr,
    limit: u64,
) -> DeleteMany<E> {
    let picked = Query::select()
        .column(key)
        .from(E::default())
        .and_where(condition)
        .limit(limit)
        .to_owned();
    E::delete_many().filter(key.in_subquery(picked))
}

#[cfg(test)]
pub(crate) mod explain;
