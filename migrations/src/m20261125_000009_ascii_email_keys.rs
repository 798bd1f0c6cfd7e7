//! Re-derives `users.email_normalized` under the matching rule of docs/api.md: only ASCII
//! letters are lowercased. Keys written before were Unicode-lowercased, so an address with
//! a non-ASCII capital (`JOSÉ@…`, `\u{212A}` KELVIN SIGN) would no longer be found by its own
//! spelling. Keys stay unique: two addresses with the same ASCII-lowercased form differ only
//! in ASCII case, so their Unicode-lowercased keys were equal already and only one exists.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{DbBackend, Statement};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(crate::steps::ALL_OR_NOTHING)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let backend = manager.get_database_backend();
        // Only the key of an address with a character outside printable ASCII can differ
        // (its old key may be all ASCII: U+212A lowercased to `k`); emails hold no control
        // characters (they are refused on the way in).
        let non_ascii = match backend {
            DbBackend::Postgres => "email ~ '[^ -~]'",
            _ => "email GLOB '*[^ -~]*'",
        };
        let rows = db
            .query_all_raw(Statement::from_string(
                backend,
                format!(
                    "SELECT email, email_normalized FROM users \
                     WHERE email_normalized IS NOT NULL AND {non_ascii}"
                ),
            ))
            .await?;
        // The stored key is unique: it names its row.
        let update = match backend {
            DbBackend::Postgres => {
                "UPDATE users SET email_normalized = $1 WHERE email_normalized = $2"
            }
            _ => "UPDATE users SET email_normalized = ?1 WHERE email_normalized = ?2",
        };
        for row in rows {
            let email: String = row.try_get("", "email")?;
            let stored: String = row.try_get("", "email_normalized")?;
            // The rule itself, frozen here: what the keys must be after this migration.
            let key = email.to_ascii_lowercase();
            if key != stored {
                db.execute_raw(Statement::from_sql_and_values(
                    backend,
                    update,
                    [key.into(), stored.into()],
                ))
                .await?;
            }
        }
        Ok(())
    }

    async fn down(&self, _manager: &SchemaManager) -> Result<(), DbErr> {
        // The Unicode-lowercased keys are what made look-alikes collide: nothing to restore.
        Ok(())
    }
}
