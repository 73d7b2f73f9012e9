//! The library's one error: a message for the operator, its context first, as `tape t.rim:
//! the word …` (the binary prints it after `pdp1: error: `). [`bail!`], [`err!`] and
//! [`Context`] give the library's code the shape the binary's `anyhow` code has.

use std::fmt::Display;

/// A message for the operator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An [`Error`] from a format string.
#[macro_export]
macro_rules! err {
    ($($t:tt)*) => {
        $crate::error::Error(format!($($t)*))
    };
}

/// Return an [`Error`] made from a format string.
#[macro_export]
macro_rules! bail {
    ($($t:tt)*) => {
        return Err($crate::err!($($t)*).into())
    };
}

pub use crate::{bail, err};

/// Say what was being done when an error happened: `context: error`.
pub trait Context<T> {
    fn context<C: Display>(self, context: C) -> Result<T>;
    fn with_context<C: Display, F: FnOnce() -> C>(self, f: F) -> Result<T>;
}

impl<T, E: Display> Context<T> for std::result::Result<T, E> {
    fn context<C: Display>(self, context: C) -> Result<T> {
        self.map_err(|e| Error(format!("{context}: {e}")))
    }
    fn with_context<C: Display, F: FnOnce() -> C>(self, f: F) -> Result<T> {
        self.map_err(|e| Error(format!("{}: {e}", f())))
    }
}

impl<T> Context<T> for Option<T> {
    fn context<C: Display>(self, context: C) -> Result<T> {
        self.ok_or_else(|| Error(context.to_string()))
    }
    fn with_context<C: Display, F: FnOnce() -> C>(self, f: F) -> Result<T> {
        self.ok_or_else(|| Error(f().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_comes_first() {
        let r: std::result::Result<(), &str> = Err("the word is bad");
        let e = r.context("tape t.rim").unwrap_err();
        assert_eq!(e.to_string(), "tape t.rim: the word is bad");
        let e = None::<u8>.with_context(|| "nothing there").unwrap_err();
        assert_eq!(e.0, "nothing there");
        let f = || -> Result<()> { bail!("at {:o}", 8) };
        assert_eq!(f().unwrap_err(), err!("at 10"));
    }
}
