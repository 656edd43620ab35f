//! The seam between the store's operations and the two databases: a statement run with
//! its arguments, the rows it reads, inside a transaction the backend opened ([`Conn`]).
//! Every operation of the store is written once over it; SQLite and PostgreSQL each
//! implement it (`store/sqlite.rs`, `store/postgres.rs`).
//!
//! Statements are written in PostgreSQL's numbering (`$1`, `$2`, …); SQLite's driver reads
//! them as its own `?1`, `?2`. Values cross the seam as [`Value`]s: each driver binds them
//! as its columns' types want (an integer into PostgreSQL's `INTEGER`, `BIGINT` or
//! `BOOLEAN`) and reads its columns back into them, so no row mapping is written twice.

use std::future::Future;
use std::pin::Pin;

use anyhow::anyhow;

use super::{StoreError, StoreResult};

/// A future that may be sent to another thread (a PostgreSQL statement awaited on the
/// backend's runtime).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One value of a statement's arguments or of a row read back.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Float(f64),
    Text(String),
    Bool(bool),
}

/// Which database a statement runs on, for the few statements the two write differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A connection inside a transaction: everything an operation does goes through these
/// two. (A statement that fails leaves the whole operation to fail: its transaction, or
/// SQLite's savepoint of it, is rolled back by the backend.)
pub trait Conn: Send {
    fn dialect(&self) -> Dialect;

    /// Runs a statement; the number of rows it changed.
    fn execute<'a>(
        &'a mut self,
        sql: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, StoreResult<u64>>;

    /// Runs a statement that reads (or changes and returns with `RETURNING`): its rows.
    fn query<'a>(
        &'a mut self,
        sql: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, StoreResult<Vec<Row>>>;

    /// Game `id` is at `version` once this transaction commits: the other instances are
    /// told then (nothing to tell when one instance owns the database).
    fn changed(&mut self, _id: &str, _version: i64) {}
}

impl dyn Conn + '_ {
    /// The one row a statement reads, if any.
    pub async fn query_opt(&mut self, sql: &str, args: &[Value]) -> StoreResult<Option<Row>> {
        Ok(self.query(sql, args).await?.into_iter().next())
    }

    /// The row a statement must read.
    pub async fn query_one(&mut self, sql: &str, args: &[Value]) -> StoreResult<Row> {
        self.query_opt(sql, args)
            .await?
            .ok_or_else(|| StoreError::Other(anyhow!("no row for: {sql}")))
    }

    /// The rows a statement reads, each read as a `T`.
    pub async fn rows<T: FromRow>(&mut self, sql: &str, args: &[Value]) -> StoreResult<Vec<T>> {
        self.query(sql, args)
            .await?
            .iter()
            .map(T::from_row)
            .collect()
    }

    /// The one row a statement reads, if any, read as a `T`.
    pub async fn row<T: FromRow>(&mut self, sql: &str, args: &[Value]) -> StoreResult<Option<T>> {
        let row = self.query_opt(sql, args).await?;
        row.as_ref().map(T::from_row).transpose()
    }
}

/// An operation of the store, run by a backend inside a transaction it opened and commits
/// if the operation succeeds (else rolls back).
pub type Job = Box<dyn for<'c> FnOnce(&'c mut dyn Conn) -> BoxFuture<'c, StoreResult<()>> + Send>;

/// A row read back: its columns in the statement's order.
#[derive(Debug, Clone, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// Column `i`, as the type it is read into.
    pub fn get<T: FromValue>(&self, i: usize) -> StoreResult<T> {
        let value = self
            .0
            .get(i)
            .ok_or_else(|| StoreError::Other(anyhow!("no column {i} in a row")))?;
        T::from_value(value).ok_or_else(|| {
            StoreError::Other(anyhow!(
                "column {i} holds {value:?}, not a {}",
                std::any::type_name::<T>()
            ))
        })
    }
}

/// What a whole row is read into: a stored type from its columns in order, one column's
/// value, or a tuple of the first columns' values. Each row type's mapping is written once.
pub trait FromRow: Sized {
    fn from_row(r: &Row) -> StoreResult<Self>;
}

impl<T: FromValue> FromRow for T {
    fn from_row(r: &Row) -> StoreResult<T> {
        r.get(0)
    }
}

impl<A: FromValue, B: FromValue> FromRow for (A, B) {
    fn from_row(r: &Row) -> StoreResult<(A, B)> {
        Ok((r.get(0)?, r.get(1)?))
    }
}

impl<A: FromValue, B: FromValue, C: FromValue> FromRow for (A, B, C) {
    fn from_row(r: &Row) -> StoreResult<(A, B, C)> {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    }
}

/// A Rust value a column is read into.
pub trait FromValue: Sized {
    fn from_value(value: &Value) -> Option<Self>;
}

impl FromValue for i64 {
    fn from_value(value: &Value) -> Option<i64> {
        match value {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }
}

/// The narrower integers, read from an `i64` that fits.
macro_rules! narrower_integers {
    ($($int:ty),*) => {$(
        impl FromValue for $int {
            fn from_value(value: &Value) -> Option<$int> {
                <$int>::try_from(i64::from_value(value)?).ok()
            }
        }
    )*};
}
narrower_integers!(u64, i32, u32);

impl FromValue for f64 {
    fn from_value(value: &Value) -> Option<f64> {
        match value {
            Value::Float(f) => Some(*f),
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
}

impl FromValue for bool {
    /// A PostgreSQL `BOOLEAN`, or SQLite's 0 or 1.
    fn from_value(value: &Value) -> Option<bool> {
        match value {
            Value::Bool(b) => Some(*b),
            Value::Int(0) => Some(false),
            Value::Int(1) => Some(true),
            _ => None,
        }
    }
}

impl FromValue for String {
    fn from_value(value: &Value) -> Option<String> {
        match value {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> Option<Option<T>> {
        match value {
            Value::Null => Some(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// The integers, written as an `i64` (a `usize` of this server's counts always fits).
macro_rules! integers {
    ($($int:ty),*) => {$(
        impl From<$int> for Value {
            fn from(i: $int) -> Value {
                Value::Int(i as i64)
            }
        }
    )*};
}
integers!(i64, i32, u32, usize);

impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Float(f)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(t: &str) -> Value {
        Value::Text(t.to_string())
    }
}

impl From<String> for Value {
    fn from(t: String) -> Value {
        Value::Text(t)
    }
}

impl From<&String> for Value {
    fn from(t: &String) -> Value {
        Value::Text(t.clone())
    }
}

impl<T: Clone + Into<Value>> From<&T> for Value
where
    T: NotString,
{
    fn from(t: &T) -> Value {
        t.clone().into()
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(t: Option<T>) -> Value {
        t.map_or(Value::Null, Into::into)
    }
}

/// The values a reference to is read as the value itself (`&i64`, `&Option<String>`), kept
/// apart from `&String`'s own conversion.
pub trait NotString {}
impl NotString for i64 {}
impl NotString for i32 {}
impl NotString for bool {}
impl NotString for f64 {}
impl<T> NotString for Option<T> {}

/// A statement's arguments, each turned into a [`Value`]: `args![id, now_ms]`.
macro_rules! args {
    ($($value:expr),* $(,)?) => {
        [$($crate::store::sql::Value::from($value)),*]
    };
}
pub(crate) use args;

/// Runs `future` to its end on this thread, which sleeps while the future waits (for the
/// database's own thread to answer): for the callers that are not async (the command
/// line's administration, tests) and for SQLite's operations, whose statements are done
/// when they return. Never on an async thread.
pub fn wait<T>(future: impl Future<Output = T>) -> T {
    struct Unpark(std::thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = std::sync::Arc::new(Unpark(std::thread::current())).into();
    let mut context = std::task::Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let std::task::Poll::Ready(value) = future.as_mut().poll(&mut context) {
            return value;
        }
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_read_as_the_types_asked_and_refuse_others() {
        let row = Row(vec![
            Value::Int(7),
            Value::Null,
            Value::Text("red".into()),
            Value::Int(1),
            Value::Bool(false),
            Value::Float(1500.5),
        ]);
        assert_eq!(row.get::<i64>(0).unwrap(), 7);
        assert_eq!(row.get::<Option<i64>>(1).unwrap(), None);
        assert_eq!(
            row.get::<Option<String>>(2).unwrap().as_deref(),
            Some("red")
        );
        assert!(row.get::<bool>(3).unwrap(), "SQLite's 1");
        assert!(!row.get::<bool>(4).unwrap(), "PostgreSQL's false");
        assert_eq!(row.get::<f64>(5).unwrap(), 1500.5);
        assert!(row.get::<i64>(2).is_err(), "text is not a number");
        assert!(row.get::<String>(1).is_err(), "null is not text");
        assert!(row.get::<i64>(6).is_err(), "no such column");
        assert!(Row(vec![Value::Int(-1)]).get::<u64>(0).is_err());
    }

    #[test]
    fn arguments_become_values() {
        let (id, none, some): (String, Option<i64>, Option<&str>) = ("g".into(), None, Some("x"));
        assert_eq!(
            args![&id, none, some, 3_i64, true, 2.5, "y"],
            [
                Value::Text("g".into()),
                Value::Null,
                Value::Text("x".into()),
                Value::Int(3),
                Value::Bool(true),
                Value::Float(2.5),
                Value::Text("y".into()),
            ]
        );
    }
}
