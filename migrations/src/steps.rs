//! The schema steps the migrations repeat, as methods of the `SchemaManager`: create or drop
//! a table, an index or columns, run a statement of SQL; and a table a user owns. Each builds exactly the statement it stands for,
//! so a migration written with them creates the schema it did when written out by hand.

use crate::m20250101_000001_create_users::Users;
use sea_orm_migration::{prelude::*, schema::*};

/// A table that belongs to a user: its primary key `key`, then `user_id` (uuid) with the
/// foreign key `foreign_key` to `users.id`, on delete cascade. Inline, because SQLite cannot
/// add a foreign key to an existing table. The caller adds the other columns, and creates it
/// with [`SchemaSteps::create_user_owned`].
pub(crate) fn user_owned_table<T, C>(
    table: T,
    key: ColumnDef,
    user_id: C,
    foreign_key: &str,
) -> TableCreateStatement
where
    T: IntoIden,
    C: IntoIden,
{
    let table = table.into_iden();
    let user_id = user_id.into_iden();
    Table::create()
        .table(table.clone())
        .col(key)
        .col(uuid(user_id.clone()))
        .foreign_key(
            ForeignKey::create()
                .name(foreign_key)
                .from(table, user_id)
                .to(Users::Table, Users::Id)
                .on_delete(ForeignKeyAction::Cascade),
        )
        .to_owned()
}

/// The steps, named apart from `SchemaManager`'s own methods, which take whole statements.
/// Written once here, as provided methods over [`SchemaSteps::schema`].
pub(crate) trait SchemaSteps {
    fn schema(&self) -> &SchemaManager<'_>;

    async fn create(&self, table: &TableCreateStatement) -> Result<(), DbErr> {
        self.schema().create_table(table.to_owned()).await
    }

    /// Creates `table`, a [`user_owned_table`], and its index `index` on `user_id`: a user's
    /// rows, which the cascading delete of the user looks up.
    async fn create_user_owned(
        &self,
        table: &TableCreateStatement,
        index: &str,
    ) -> Result<(), DbErr> {
        self.create(table).await?;
        let owned = table
            .get_table_name()
            .cloned()
            .ok_or_else(|| DbErr::Migration("a user-owned table without a name".into()))?;
        let mut user_index = Index::create();
        user_index
            .name(index)
            .table(owned)
            .col(Alias::new("user_id"));
        self.schema().create_index(user_index).await
    }

    async fn drop_table_of(&self, table: impl IntoIden) -> Result<(), DbErr> {
        let drop = Table::drop().table(table.into_iden()).to_owned();
        self.schema().drop_table(drop).await
    }

    /// An index named `name` on `columns` of `table`, in that order.
    async fn index<C: IntoIndexColumn>(
        &self,
        name: &str,
        table: impl IntoIden,
        columns: impl IntoIterator<Item = C>,
    ) -> Result<(), DbErr> {
        self.schema()
            .create_index(index(name, table, columns))
            .await
    }

    /// A unique index named `name` on `columns` of `table`, in that order.
    async fn unique_index<C: IntoIndexColumn>(
        &self,
        name: &str,
        table: impl IntoIden,
        columns: impl IntoIterator<Item = C>,
    ) -> Result<(), DbErr> {
        let index = index(name, table, columns).unique().to_owned();
        self.schema().create_index(index).await
    }

    async fn drop_index_of(&self, name: &str, table: impl IntoIden) -> Result<(), DbErr> {
        let drop = Index::drop().name(name).table(table.into_iden()).to_owned();
        self.schema().drop_index(drop).await
    }

    /// Adds `columns` to `table`, one column per statement: SQLite alters one thing at a time.
    async fn add_columns(
        &self,
        table: impl IntoIden,
        columns: impl IntoIterator<Item = ColumnDef>,
    ) -> Result<(), DbErr> {
        alter_one_by_one(self.schema(), table, columns, |alter, column| {
            alter.add_column(column);
        })
        .await
    }

    /// Drops `columns` from `table`, one column per statement.
    async fn drop_columns<C: IntoIden>(
        &self,
        table: impl IntoIden,
        columns: impl IntoIterator<Item = C>,
    ) -> Result<(), DbErr> {
        alter_one_by_one(self.schema(), table, columns, |alter, column| {
            alter.drop_column(column);
        })
        .await
    }

    /// Runs one SQL statement that returns no rows.
    async fn run_sql(&self, sql: &str) -> Result<(), DbErr> {
        let connection = self.schema().get_connection();
        connection.execute_unprepared(sql).await.map(|_| ())
    }
}

impl SchemaSteps for SchemaManager<'_> {
    fn schema(&self) -> &SchemaManager<'_> {
        self
    }
}

/// One `ALTER TABLE` per item: SQLite alters one thing at a time.
async fn alter_one_by_one<I>(
    manager: &SchemaManager<'_>,
    table: impl IntoIden,
    items: impl IntoIterator<Item = I>,
    step: impl Fn(&mut TableAlterStatement, I),
) -> Result<(), DbErr> {
    let table = table.into_iden();
    for item in items {
        let mut alter = Table::alter();
        alter.table(table.clone());
        step(&mut alter, item);
        manager.alter_table(alter).await?;
    }
    Ok(())
}

fn index<C: IntoIndexColumn>(
    name: &str,
    table: impl IntoIden,
    columns: impl IntoIterator<Item = C>,
) -> IndexCreateStatement {
    let mut index = Index::create();
    index.name(name).table(table.into_iden());
    for column in columns {
        index.col(column);
    }
    index
}
