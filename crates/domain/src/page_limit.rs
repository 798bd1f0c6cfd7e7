//! How many items one page of a list holds.

/// 1 to `MAX` items a page, `DEFAULT` unless asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit<const DEFAULT_ITEMS: u64, const MAX_ITEMS: u64>(u64);

impl<const DEFAULT_ITEMS: u64, const MAX_ITEMS: u64> Limit<DEFAULT_ITEMS, MAX_ITEMS> {
    pub const DEFAULT: Self = Self(DEFAULT_ITEMS);
    pub const MAX: Self = Self(MAX_ITEMS);

    pub fn new(limit: u64) -> Option<Self> {
        (1..=MAX_ITEMS).contains(&limit).then_some(Self(limit))
    }

    pub fn get(self) -> u64 {
        self.0
    }
}

/// How many users one page of the operator's search holds: 1 to 100, 50 unless asked.
pub type PageLimit = Limit<50, 100>;

/// How many events one page of the audit trail holds: 1 to 1000, 100 unless asked.
pub type EventPageLimit = Limit<100, 1000>;
