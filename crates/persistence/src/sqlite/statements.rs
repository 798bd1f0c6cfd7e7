//! The connection with its prepared statements, found by the address of their SQL text.
//!
//! Why not rusqlite's `prepare_cached`: it hashes the whole SQL text twice per use (to take
//! the statement out and to put it back) and copies it into a new key each time; that was
//! about 1.5 % of a login's instructions and one heap allocation per statement. Every
//! statement of this adapter is a `&'static str` constant, so the address of its text is a
//! key. Two constants with the same text may have different addresses, and so may two uses
//! of one constant: each then gets a statement of its own, which is only a little memory.

use rusqlite::{Connection, PrepFlags, Statement};
use std::cell::RefCell;
use std::ops::Deref;

/// Statements kept at most: one for each place in the adapter that runs a statement (about
/// 70, the group commit's three included), with room, so none is prepared twice in a
/// normal day. Past the bound a new statement is prepared for each use and not kept.
const MOST_KEPT: usize = 96;

/// The connection of the SQLite thread and the statements prepared on it. Derefs to the
/// connection for everything else.
pub(crate) struct Db<'c> {
    connection: &'c Connection,
    kept: RefCell<Vec<(&'static str, Statement<'c>)>>,
}

impl<'c> Db<'c> {
    pub(crate) fn new(connection: &'c Connection) -> Self {
        Self {
            connection,
            kept: RefCell::new(Vec::new()),
        }
    }

    /// Runs `use_it` on the statement of `sql`, prepared on first use and kept for the next.
    /// A statement in use is out of the list, so a nested use of the same SQL prepares a
    /// second one instead of sharing it.
    pub(crate) fn with<T>(
        &self,
        sql: &'static str,
        use_it: impl FnOnce(&mut Statement<'c>) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        let mut statement = match self.take(sql) {
            Some(statement) => statement,
            None => self
                .connection
                .prepare_with_flags(sql, PrepFlags::SQLITE_PREPARE_PERSISTENT)?,
        };
        let result = use_it(&mut statement);
        // No value of this use may linger into the next (a token bound as a parameter).
        statement.clear_bindings();
        let mut kept = self.kept.borrow_mut();
        if kept.len() < MOST_KEPT {
            kept.push((sql, statement));
        }
        result
    }

    fn take(&self, sql: &'static str) -> Option<Statement<'c>> {
        let mut kept = self.kept.borrow_mut();
        let at = kept.iter().position(|(text, _)| same_constant(text, sql))?;
        Some(kept.swap_remove(at).1)
    }

    #[cfg(test)]
    fn kept(&self) -> usize {
        self.kept.borrow().len()
    }
}

/// The same constant: same address, same length (a shorter constant may start at the same
/// address when the compiler shares a prefix).
fn same_constant(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b)
}

impl Deref for Db<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.connection
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INSERT: &str = "INSERT INTO t (v) VALUES (?1)";
    const COUNT: &str = "SELECT count(*) FROM t";

    fn connection_with(schema: &str) -> Connection {
        let connection = Connection::open_in_memory().unwrap();
        connection.execute_batch(schema).unwrap();
        connection
    }

    fn insert(db: &Db, value: i64) {
        db.with(INSERT, |statement| statement.execute([value]))
            .unwrap();
    }

    fn count(db: &Db) -> i64 {
        db.with(COUNT, |statement| statement.query_row([], |row| row.get(0)))
            .unwrap()
    }

    #[test]
    fn a_statement_is_prepared_once_and_serves_every_use() {
        let connection = connection_with("CREATE TABLE t (v)");
        let db = Db::new(&connection);
        for value in 0..5 {
            insert(&db, value);
        }
        assert_eq!(count(&db), 5);
        assert_eq!(db.kept(), 2, "one statement per SQL text");
    }

    #[test]
    fn a_nested_use_of_the_same_sql_gets_a_statement_of_its_own() {
        let connection = connection_with("CREATE TABLE t (v); INSERT INTO t VALUES (1), (2)");
        let db = Db::new(&connection);
        let outer = db
            .with(COUNT, |statement| {
                let inner = count(&db);
                statement
                    .query_row([], |row| row.get::<_, i64>(0))
                    .map(|n| n + inner)
            })
            .unwrap();
        assert_eq!(outer, 4);
    }

    #[test]
    fn bindings_do_not_outlive_their_use_and_a_failed_use_keeps_the_statement() {
        let connection = connection_with("CREATE TABLE t (v NOT NULL)");
        let db = Db::new(&connection);
        insert(&db, 7);
        // Run unbound: a kept value 7 would insert a row; NULL breaks the constraint.
        let unbound = db.with(INSERT, |statement| statement.raw_execute());
        assert!(unbound.is_err(), "the last use's value was cleared");
        assert_eq!(count(&db), 1);
        assert_eq!(db.kept(), 2, "the failed use kept its statement");
        insert(&db, 8);
        assert_eq!(count(&db), 2);
    }

    #[test]
    fn a_panic_in_a_use_leaves_the_rest_usable() {
        let connection = connection_with("CREATE TABLE t (v)");
        let db = Db::new(&connection);
        insert(&db, 1);
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            db.with(COUNT, |_| -> rusqlite::Result<()> { panic!("boom") })
        }));
        assert!(panicked.is_err());
        assert_eq!(count(&db), 1, "the list is not left borrowed");
        insert(&db, 2);
        assert_eq!(count(&db), 2);
    }

    /// Every value of `t`, each passed through `check`.
    fn values(db: &Db, check: impl Fn(i64) -> rusqlite::Result<i64>) -> rusqlite::Result<Vec<i64>> {
        db.with("SELECT v FROM t", |statement| {
            statement.query_map([], |row| check(row.get(0)?))?.collect()
        })
    }

    #[test]
    fn a_query_that_fails_midway_leaves_no_statement_running() {
        let connection = connection_with("CREATE TABLE t (v); INSERT INTO t VALUES (1), (2), (3)");
        let db = Db::new(&connection);
        let failed = values(&db, |v| match v {
            2 => Err(rusqlite::Error::InvalidQuery),
            v => Ok(v),
        });
        assert!(failed.is_err());
        // A statement left mid-query would keep a read transaction open (and, in WAL mode,
        // hold back checkpoints).
        assert!(!connection.is_busy());
        let again = values(&db, Ok);
        assert_eq!(again.unwrap(), vec![1, 2, 3]);
    }

    #[test]
    fn the_list_is_bounded() {
        let connection = Connection::open_in_memory().unwrap();
        let db = Db::new(&connection);
        // Distinct addresses of one text: leaked copies stand in for many constants.
        for _ in 0..MOST_KEPT + 10 {
            let sql: &'static str = String::from("SELECT 1").leak();
            db.with(sql, |statement| {
                statement.query_row([], |row| row.get::<_, i64>(0))
            })
            .unwrap();
        }
        assert_eq!(db.kept(), MOST_KEPT);
    }
}
