//! Request parameters a test varies one at a time: a valid request, then one changed.

/// Query or form parameters, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(pub Vec<(String, String)>);

impl Params {
    pub fn of(pairs: &[(&str, &str)]) -> Self {
        Self(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        )
    }

    /// These with `name` set to `value` (replaced, or added at the end).
    pub fn set(self, name: &str, value: &str) -> Self {
        self.unset(name).and(name, value)
    }

    /// These with `name` removed.
    pub fn unset(mut self, name: &str) -> Self {
        self.0.retain(|(k, _)| k != name);
        self
    }

    /// These with one more `name=value` (a second one, if `name` is there already).
    pub fn and(mut self, name: &str, value: &str) -> Self {
        self.0.push((name.to_owned(), value.to_owned()));
        self
    }

    /// `name` set to `value`, or removed when `None`.
    pub fn with(self, name: &str, value: Option<&str>) -> Self {
        match value {
            Some(value) => self.set(name, value),
            None => self.unset(name),
        }
    }

    /// The values of `names`, in that order.
    pub fn fields<const N: usize>(&self, names: [&str; N]) -> [Option<&str>; N] {
        names.map(|name| self.get(name))
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}
