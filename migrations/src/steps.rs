//! The steps the migrations are made of. A migration states its changes once, as [`Steps`]:
//! `up` applies them in order and `down` applies their inverses in reverse order, so what a
//! migration's `down` removes is exactly what its `up` added. Each step builds exactly the
//! statement it stands for, so a migration written with them creates the schema it did when
//! written out by hand.

use crate::tables::Users;
use sea_orm_migration::sea_orm::DbBackend;
use sea_orm_migration::{prelude::*, schema::*};

/// A migration written as [`Steps`]: `up` applies its steps, `down` undoes them, newest
/// first.
pub(crate) struct Reversible {
    /// Its module's name, as the migrations table records it.
    pub(crate) name: &'static str,
    /// Its changes on a backend, in the order `up` applies them.
    pub(crate) steps: fn(DbBackend) -> Steps,
}

impl MigrationName for Reversible {
    fn name(&self) -> &str {
        self.name
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Reversible {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let steps = (self.steps)(manager.get_database_backend()).0;
        apply(manager, steps).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let steps = (self.steps)(manager.get_database_backend()).0;
        apply(manager, steps.iter().rev().filter_map(Step::inverse)).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(ALL_OR_NOTHING)
    }
}

/// Every migration runs in one transaction with its record, on SQLite too (sea-orm's
/// default wraps PostgreSQL's only): one stopped half-way (a kill, a failed step) leaves
/// nothing of itself, so the next start applies it whole instead of failing on what half
/// of it did.
pub(crate) const ALL_OR_NOTHING: bool = true;

/// One change to the schema or its rows.
enum Step {
    CreateTable(TableCreateStatement),
    DropTable(TableDropStatement),
    CreateIndex(NamedIndex),
    /// Dropping an index (its statements create it again).
    DropIndex(NamedIndex),
    /// One `ALTER TABLE` a column: SQLite alters one thing at a time.
    AddColumn(TableRef, ColumnDef),
    /// The column as adding it back creates it.
    DropColumn(TableRef, ColumnDef),
    /// A statement that rewrites rows and returns none.
    Sql(String),
}

impl Step {
    /// What undoes the step. Rows rewritten stay as they are: what undoes the schema change
    /// that needed them (a column or a table dropped) takes them away, if anything does.
    fn inverse(&self) -> Option<Step> {
        Some(match self {
            Step::CreateTable(create) => {
                let table = create.get_table_name()?.clone();
                Step::DropTable(Table::drop().table(table).to_owned())
            }
            Step::CreateIndex(index) => Step::DropIndex(index.clone()),
            Step::DropIndex(index) => Step::CreateIndex(index.clone()),
            Step::AddColumn(table, column) => Step::DropColumn(table.clone(), column.clone()),
            Step::DropColumn(table, column) => Step::AddColumn(table.clone(), column.clone()),
            Step::DropTable(_) | Step::Sql(_) => return None,
        })
    }

    async fn apply(self, manager: &SchemaManager<'_>) -> Result<(), DbErr> {
        match self {
            Step::CreateTable(create) => manager.create_table(create).await,
            Step::DropTable(drop) => manager.drop_table(drop).await,
            Step::CreateIndex(index) => {
                if manager.get_database_backend() == DbBackend::Postgres {
                    let drop_invalid = index.drop_if_invalid();
                    manager
                        .get_connection()
                        .execute_unprepared(&drop_invalid)
                        .await?;
                }
                manager.create_index(index.create).await
            }
            Step::DropIndex(index) => manager.drop_index(index.drop).await,
            Step::AddColumn(table, column) => {
                let alter = Table::alter().table(table).add_column(column).to_owned();
                manager.alter_table(alter).await
            }
            Step::DropColumn(table, column) => {
                let name = Alias::new(column.get_column_name());
                let alter = Table::alter().table(table).drop_column(name).to_owned();
                manager.alter_table(alter).await
            }
            Step::Sql(sql) => {
                let connection = manager.get_connection();
                connection.execute_unprepared(&sql).await.map(|_| ())
            }
        }
    }
}

/// How long a migration waits for a table's lock on PostgreSQL. Behind a long transaction
/// (a backup's, a report's) an `ALTER TABLE` would otherwise wait without end, and every
/// login's statements on that table would queue behind it; after this the migration gives
/// up, applies nothing, and the next start tries again.
pub(crate) const LOCK_WAIT: &str = "5s";

async fn apply(
    manager: &SchemaManager<'_>,
    steps: impl IntoIterator<Item = Step>,
) -> Result<(), DbErr> {
    let connection = manager.get_connection();
    if connection.get_database_backend() == DbBackend::Postgres {
        // Inside the migration's transaction (`ALL_OR_NOTHING`): it ends with it.
        let wait = format!("SET LOCAL lock_timeout = '{LOCK_WAIT}'");
        connection.execute_unprepared(&wait).await?;
    }
    for step in steps {
        step.apply(manager).await?;
    }
    Ok(())
}

/// A migration's changes, in the order they apply; built a step at a time.
#[derive(Default)]
pub(crate) struct Steps(Vec<Step>);

impl Steps {
    fn then(self, step: Step) -> Self {
        self.then_each([step])
    }

    fn then_each(mut self, steps: impl IntoIterator<Item = Step>) -> Self {
        self.0.extend(steps);
        self
    }

    /// Creates `table`; undone by dropping it.
    pub(crate) fn create(self, table: &mut TableCreateStatement) -> Self {
        self.then(Step::CreateTable(table.take()))
    }

    /// Creates a table that belongs to a user: its primary key `key`, then `user_id` (uuid)
    /// with the foreign key `foreign_key` to `users.id`, on delete cascade (inline, because
    /// SQLite cannot add a foreign key to an existing table), then `columns`; and its index
    /// `index` on `user_id`: a user's rows, which the cascading delete of the user looks up.
    pub(crate) fn user_owned(
        self,
        table: impl IntoIden,
        key: ColumnDef,
        foreign_key: &str,
        index: &str,
        columns: impl IntoIterator<Item = ColumnDef>,
    ) -> Self {
        let table = table.into_iden();
        let user_id = Alias::new("user_id").into_iden();
        let mut create = Table::create();
        create
            .table(table.clone())
            .col(key)
            .col(uuid(user_id.clone()))
            .foreign_key(
                ForeignKey::create()
                    .name(foreign_key)
                    .from(table.clone(), user_id.clone())
                    .to(Users::Table, Users::Id)
                    .on_delete(ForeignKeyAction::Cascade),
            );
        for column in columns {
            create.col(column);
        }
        self.create(&mut create).index(index, table, [user_id])
    }

    /// An index named `name` on `columns` of `table`, in that order; undone by dropping it.
    pub(crate) fn index<C: IntoIndexColumn>(
        self,
        name: &str,
        table: impl IntoIden,
        columns: impl IntoIterator<Item = C>,
    ) -> Self {
        self.index_of(name, table, columns, false)
    }

    /// A unique index named `name` on `columns` of `table`, in that order.
    pub(crate) fn unique_index<C: IntoIndexColumn>(
        self,
        name: &str,
        table: impl IntoIden,
        columns: impl IntoIterator<Item = C>,
    ) -> Self {
        self.index_of(name, table, columns, true)
    }

    fn index_of<C: IntoIndexColumn>(
        self,
        name: &str,
        table: impl IntoIden,
        columns: impl IntoIterator<Item = C>,
        unique: bool,
    ) -> Self {
        self.then(Step::CreateIndex(NamedIndex::new(
            name, table, columns, unique,
        )))
    }

    /// Drops the index named `name`, which is on `columns` of `table`, in that order; undone
    /// by creating it again.
    pub(crate) fn drop_index<C: IntoIndexColumn>(
        self,
        name: &str,
        table: impl IntoIden,
        columns: impl IntoIterator<Item = C>,
    ) -> Self {
        self.then(Step::DropIndex(NamedIndex::new(
            name, table, columns, false,
        )))
    }

    /// Adds `columns` to `table`, one statement each; undone by dropping them.
    pub(crate) fn add_columns(self, table: impl IntoIden, columns: &[ColumnDef]) -> Self {
        self.each_column(table, columns, Step::AddColumn)
    }

    /// Drops `columns` from `table`, one statement each; undone by adding them back as
    /// `columns` defines them.
    pub(crate) fn drop_columns(self, table: impl IntoIden, columns: &[ColumnDef]) -> Self {
        self.each_column(table, columns, Step::DropColumn)
    }

    fn each_column(
        self,
        table: impl IntoIden,
        columns: &[ColumnDef],
        step: fn(TableRef, ColumnDef) -> Step,
    ) -> Self {
        let table = table.into_iden().into_table_ref();
        self.then_each(
            columns
                .iter()
                .map(|column| step(table.clone(), column.clone())),
        )
    }

    /// Runs `sql`, one statement that rewrites rows; nothing undoes it.
    pub(crate) fn sql(self, sql: impl Into<String>) -> Self {
        self.then(Step::Sql(sql.into()))
    }
}

/// An index with the statements that create and drop it.
#[derive(Clone)]
struct NamedIndex {
    name: String,
    create: IndexCreateStatement,
    drop: IndexDropStatement,
}

impl NamedIndex {
    /// The index `name` on `columns` of `table`, in that order.
    fn new<C: IntoIndexColumn>(
        name: &str,
        table: impl IntoIden,
        columns: impl IntoIterator<Item = C>,
        unique: bool,
    ) -> Self {
        let table = table.into_iden();
        let mut create = Index::create();
        // An operator may build an index beforehand without blocking writes (PostgreSQL's
        // `CREATE INDEX CONCURRENTLY`, docs/operations.md); the migration then keeps it.
        create.name(name).table(table.clone()).if_not_exists();
        for column in columns {
            create.col(column);
        }
        if unique {
            create.unique();
        }
        let drop = Index::drop().name(name).table(table).to_owned();
        Self {
            name: name.to_owned(),
            create,
            drop,
        }
    }

    /// PostgreSQL: drops the index when a failed concurrent build left it invalid (never
    /// used, and kept by `IF NOT EXISTS` otherwise), so that it is built again.
    fn drop_if_invalid(&self) -> String {
        let name = &self.name;
        format!(
            "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c \
             ON c.oid = i.indexrelid WHERE c.relname = '{name}' AND NOT i.indisvalid) \
             THEN DROP INDEX {name}; END IF; END $$"
        )
    }
}
