//! The tables and columns the migrations name, each declared once. A column stays here
//! after a later migration drops it: the migration that made it still names it. (The
//! `user_id` of a user-owned table is named by `Steps::user_owned`, which makes it.)

use sea_orm_migration::prelude::*;

#[derive(DeriveIden)]
pub enum Users {
    Table,
    Id,
    Email,
    EmailNormalized,
    FullName,
    AvatarUrl,
    EmailVerified,
    PasswordHash,
    CreatedAt,
    Locked,
}

#[derive(DeriveIden)]
pub enum LinkedAccounts {
    Table,
    Id,
    UserId,
    Provider,
    Subject,
    Email,
    AccessToken,
    RefreshToken,
    CreatedAt,
    UpdatedAt,
    Disabled,
    DisabledChangedMs,
    GrantClientId,
    Scopes,
    AccessExpiresMs,
    RefreshLeaseUntilMs,
}

#[derive(DeriveIden)]
pub enum RefreshTokens {
    Table,
    TokenHash,
    FamilyId,
    CreatedAt,
    ExpiresAt,
    Used,
    Revoked,
}

#[derive(DeriveIden)]
pub enum RefreshFamilies {
    Table,
    Id,
    /// Made by `Steps::user_owned`; named here for the index that starts with it.
    UserId,
    CreatedAt,
    ExpiresAt,
    Revoked,
    AuthTime,
    BeganWith,
}

#[derive(DeriveIden)]
pub enum AuditEvents {
    Table,
    Id,
    UserId,
    Type,
    Provider,
    Ip,
    UserAgent,
    RequestId,
    CreatedAt,
    AdminKeyId,
    Via,
}

#[derive(DeriveIden)]
pub enum WebhookOutbox {
    Table,
    Seq,
    EventId,
    Attempts,
    NextAttemptMs,
    LockedUntilMs,
    DeadAtMs,
    LastError,
    RedeliveredMs,
}

#[derive(DeriveIden)]
pub enum WebhookProbeTurn {
    Table,
    Id,
    NextMs,
}

#[derive(DeriveIden)]
pub enum SignalReceipts {
    Table,
    Source,
    SignalId,
    ReceivedMs,
}
