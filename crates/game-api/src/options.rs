//! Game options as `name=value` pairs: one representation shared by the
//! command line (`rows=5`), data files (`[options]` tables) and the games.
//!
//! One rule for every game: an option is given at most once, and a whole
//! number is written with ASCII digits only (no sign, no spaces inside, no
//! `_`), read by [`whole_number`] or [`Options::get_number`].

use crate::OptionsError;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// One option a game understands, for `games list` and for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Its name, e.g. `"rows"`.
    pub name: &'static str,
    /// Its default, as text.
    pub default: &'static str,
    /// What it means.
    pub help: &'static str,
}

impl OptionSpec {
    /// A new option description.
    #[must_use]
    pub const fn new(name: &'static str, default: &'static str, help: &'static str) -> Self {
        OptionSpec {
            name,
            default,
            help,
        }
    }
}

/// Why a text is not a whole number (see [`whole_number`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WholeNumberError {
    /// Not digits only (empty, a sign, a space, a letter...).
    #[error("expected a whole number written with digits only")]
    NotANumber,
    /// Digits, but more than the type holds.
    #[error("too large")]
    TooLarge,
}

/// Reads a whole number the way every option does: ASCII digits only (no
/// sign, no spaces, no `_`); the caller trims the text if it wants to.
///
/// ```
/// use game_api::{whole_number, WholeNumberError};
/// assert_eq!(whole_number::<u32>("05"), Ok(5));
/// assert_eq!(whole_number::<u32>("+5"), Err(WholeNumberError::NotANumber));
/// assert_eq!(whole_number::<u32>("-5"), Err(WholeNumberError::NotANumber));
/// assert_eq!(whole_number::<u8>("300"), Err(WholeNumberError::TooLarge));
/// ```
///
/// # Errors
/// [`WholeNumberError`] saying which rule the text breaks.
pub fn whole_number<T: TryFrom<u64>>(text: &str) -> Result<T, WholeNumberError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(WholeNumberError::NotANumber);
    }
    // Digits only: the parse fails only when the number is too large.
    text.parse::<u64>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or(WholeNumberError::TooLarge)
}

/// Named option values, kept as text and parsed by the game that reads them.
///
/// ```
/// use game_api::Options;
/// let o = Options::parse_args(["rows=5", "cols=4"]).unwrap();
/// assert_eq!(o.get_number::<u32>("rows", 6).unwrap(), 5);
/// assert_eq!(o.get_number::<u32>("connect", 4).unwrap(), 4);
/// assert!(o.get_or::<bool>("rows", false).is_err());
/// assert_eq!(o.to_string(), "cols=4 rows=5");
/// assert!(Options::parse_args(["rows=5", "rows=6"]).is_err());
/// assert!(Options::parse_args(["rows=+5"]).unwrap().get_number::<u32>("rows", 6).is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options(BTreeMap<String, String>);

impl Options {
    /// No options: every option takes its default.
    #[must_use]
    pub fn new() -> Self {
        Options::default()
    }

    /// Adds (or replaces) an option, builder-style.
    #[must_use]
    pub fn with(mut self, name: &str, value: impl fmt::Display) -> Self {
        self.0.insert(name.to_owned(), value.to_string());
        self
    }

    /// Reads `name=value` arguments, as given on the command line.
    ///
    /// # Errors
    /// [`OptionsError::Syntax`] for an argument without `=` or with an empty
    /// name, [`OptionsError::Repeated`] for an option given twice.
    pub fn parse_args<I, S>(args: I) -> Result<Self, OptionsError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut map = BTreeMap::new();
        for arg in args {
            let arg = arg.as_ref();
            match arg.split_once('=') {
                Some((name, value)) if !name.trim().is_empty() => {
                    let name = name.trim();
                    if map.contains_key(name) {
                        return Err(OptionsError::Repeated(name.to_owned()));
                    }
                    map.insert(name.to_owned(), value.trim().to_owned());
                }
                _ => return Err(OptionsError::Syntax(arg.to_owned())),
            }
        }
        Ok(Options(map))
    }

    /// The raw text of an option, if given.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// The option parsed as `T` by its [`FromStr`], or `default` when not
    /// given. For whole numbers use [`Options::get_number`], which follows
    /// the options' rule (`FromStr` for integers accepts `+5`).
    ///
    /// # Errors
    /// [`OptionsError::Invalid`] when the text does not parse as `T`.
    pub fn get_or<T: FromStr>(&self, name: &str, default: T) -> Result<T, OptionsError>
    where
        T::Err: fmt::Display,
    {
        match self.0.get(name) {
            None => Ok(default),
            Some(text) => text.parse().map_err(|e: T::Err| OptionsError::Invalid {
                name: name.to_owned(),
                value: text.clone(),
                reason: e.to_string(),
            }),
        }
    }

    /// The option as a whole number (digits only, see [`whole_number`]), or
    /// `default` when not given.
    ///
    /// # Errors
    /// [`OptionsError::Invalid`] for anything but digits, or a number too
    /// large for `T`.
    pub fn get_number<T: TryFrom<u64>>(&self, name: &str, default: T) -> Result<T, OptionsError> {
        match self.0.get(name) {
            None => Ok(default),
            Some(text) => whole_number(text).map_err(|e| OptionsError::Invalid {
                name: name.to_owned(),
                value: text.clone(),
                reason: e.to_string(),
            }),
        }
    }

    /// Refuses options that are not in `specs`.
    ///
    /// # Errors
    /// [`OptionsError::Unknown`] naming the first unknown option and the known ones.
    pub fn check_known(&self, specs: &[OptionSpec]) -> Result<(), OptionsError> {
        for name in self.0.keys() {
            if !specs.iter().any(|s| s.name == name) {
                return Err(OptionsError::Unknown {
                    name: name.clone(),
                    known: specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
                });
            }
        }
        Ok(())
    }

    /// The options, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Whether no option is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Options {
    /// `name=value` pairs separated by spaces, as on the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (k, v) in &self.0 {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

impl Serialize for Options {
    /// Whole numbers and booleans are written as such, everything else as text.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let map: BTreeMap<&str, toml::Value> = self
            .0
            .iter()
            .map(|(k, v)| {
                let value = if let Ok(i) = v.parse::<i64>() {
                    toml::Value::Integer(i)
                } else if let Ok(b) = v.parse::<bool>() {
                    toml::Value::Boolean(b)
                } else {
                    toml::Value::String(v.clone())
                };
                (k.as_str(), value)
            })
            .collect();
        map.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Options {
    /// Accepts text, whole numbers, booleans, and arrays of those (joined with
    /// commas, so `piles = [3, 4, 5]` reads as `piles=3,4,5`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = BTreeMap::<String, toml::Value>::deserialize(deserializer)?;
        let mut map = BTreeMap::new();
        for (k, v) in raw {
            let text = scalar_text(&v).or_else(|| match &v {
                toml::Value::Array(items) => items
                    .iter()
                    .map(scalar_text)
                    .collect::<Option<Vec<_>>>()
                    .map(|t| t.join(",")),
                _ => None,
            });
            match text {
                Some(t) => {
                    map.insert(k, t);
                }
                None => {
                    return Err(serde::de::Error::custom(format!(
                        "option `{k}` must be text, a number, a boolean or a list of those"
                    )))
                }
            }
        }
        Ok(Options(map))
    }
}

fn scalar_text(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_args_rejects_missing_equals_sign() {
        assert_eq!(
            Options::parse_args(["rows"]),
            Err(OptionsError::Syntax("rows".into()))
        );
        assert!(Options::parse_args(["=3"]).is_err());
    }

    #[test]
    fn an_option_given_twice_is_refused() {
        assert_eq!(
            Options::parse_args(["rows=5", " rows = 6"]),
            Err(OptionsError::Repeated("rows".into()))
        );
    }

    #[test]
    fn toml_round_trip_keeps_numbers_as_numbers_and_lists_as_commas() {
        #[derive(Serialize, Deserialize)]
        struct Doc {
            options: Options,
        }
        let doc: Doc =
            toml::from_str("[options]\nrows = 5\npiles = [3, 4]\nrule = \"normal\"\n").unwrap();
        assert_eq!(doc.options.get("rows"), Some("5"));
        assert_eq!(doc.options.get("piles"), Some("3,4"));
        let text = toml::to_string(&doc).unwrap();
        assert!(text.contains("rows = 5"), "{text}");
        assert!(text.contains("rule = \"normal\""), "{text}");
    }

    #[test]
    fn check_known_names_the_unknown_option() {
        let specs = [OptionSpec::new("rows", "6", "")];
        let err = Options::parse_args(["rws=3"])
            .unwrap()
            .check_known(&specs)
            .unwrap_err();
        assert_eq!(err.to_string(), "unknown option `rws` (known: rows)");
    }
}
