//! An Apple developer team as the simulated token endpoint knows it: the Team ID and the
//! public half of the `.p8` key its client secrets are signed with.
//!
//! TEST FIXTURES ONLY: the P-256 key pair in `apple/test_team_key.*` is published in this
//! repository and protects nothing. It is fixed so the server's tests and the demo can sign
//! client secrets the simulator accepts, without generating keys.

/// The private half of the fixture team key: a PKCS#8 PEM, the shape of Apple's `.p8`
/// download. A test fixture: never use it for anything real.
pub const APPLE_TEST_KEY_PEM: &str = include_str!("test_team_key.p8");

/// The public half of [`APPLE_TEST_KEY_PEM`] (SPKI PEM), what the simulator verifies with.
pub const APPLE_TEST_PUBLIC_KEY_PEM: &str = include_str!("test_team_key.pub.pem");

/// The fixture Team ID (ten characters, like Apple's).
pub const APPLE_TEST_TEAM_ID: &str = "SIMTEAM001";

/// The fixture Key ID (ten characters, like Apple's).
pub const APPLE_TEST_KEY_ID: &str = "SIMKEY0001";

/// A seeded team key. A team with several keys is seeded once per key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppleTeam {
    pub team_id: String,
    pub key_id: String,
    /// SPKI PEM (`-----BEGIN PUBLIC KEY-----`) of the P-256 key.
    pub public_key_pem: String,
}

impl AppleTeam {
    pub fn new(
        team_id: impl Into<String>,
        key_id: impl Into<String>,
        public_key_pem: impl Into<String>,
    ) -> Self {
        Self {
            team_id: team_id.into(),
            key_id: key_id.into(),
            public_key_pem: public_key_pem.into(),
        }
    }

    /// The fixture team: [`APPLE_TEST_TEAM_ID`], [`APPLE_TEST_KEY_ID`] and
    /// [`APPLE_TEST_PUBLIC_KEY_PEM`].
    pub fn test_fixture() -> Self {
        Self::new(
            APPLE_TEST_TEAM_ID,
            APPLE_TEST_KEY_ID,
            APPLE_TEST_PUBLIC_KEY_PEM,
        )
    }
}
