//! Where a declaration reads who signed in: JSON Pointers into the provider's documents, and
//! when an email counts as verified.

use serde::{Deserialize, Deserializer, de};

/// JSON Pointers (RFC 6901) into the provider's documents: the id_token claims, then the
/// userinfo answer (the userinfo answer only for the `oauth2` kind); one prefixed `token:`
/// reads the token response instead (never its tokens). A missing subject reads as empty,
/// which [`ProviderSpec::problems`] names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Claims {
    pub subject: String,
    pub email: Option<String>,
    pub email_verified: EmailVerified,
    /// Fallbacks, first usable one wins; TOML takes one pointer or a list.
    #[serde(deserialize_with = "one_or_many")]
    pub name: Vec<String>,
    pub avatar_url: Option<String>,
    /// The organisation that manages the account (Google's `hd`); a provider that declares
    /// it has the sign-up policy's domain list check it too.
    pub hosted_domain: Option<String>,
}

/// When an email counts as verified by the provider.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum EmailVerified {
    /// Every pointer's value, read in the document that gave the email (a `token:` one in
    /// the token response), holds: a JSON `true`, the string `"true"` or the number 1;
    /// anything else is false (Kakao needs both of its flags).
    AllOf(Vec<String>),
    /// Whenever there is an email (X's `confirmed_email` is confirmed by definition).
    WhenPresent,
    /// Never (Facebook; a provider from configuration nobody vouched for).
    #[default]
    Never,
}

impl Claims {
    /// The OpenID Connect claims (`sub`, `email`, `email_verified`, `name`, `picture`):
    /// what a provider from configuration reads unless its table names other pointers.
    pub fn openid_connect() -> Self {
        Self {
            subject: "/sub".into(),
            email: Some("/email".into()),
            email_verified: EmailVerified::AllOf(vec!["/email_verified".into()]),
            name: vec!["/name".into()],
            avatar_url: Some("/picture".into()),
            hosted_domain: None,
        }
    }

    /// Every pointer, with the field it is for (`claims.name[1]`).
    pub fn pointers(&self) -> Vec<(String, &str)> {
        let mut pointers = vec![("claims.subject".to_owned(), self.subject.as_str())];
        let optional = [
            ("email", &self.email),
            ("avatar_url", &self.avatar_url),
            ("hosted_domain", &self.hosted_domain),
        ];
        for (field, pointer) in optional {
            if let Some(pointer) = pointer {
                pointers.push((format!("claims.{field}"), pointer));
            }
        }
        if let EmailVerified::AllOf(flags) = &self.email_verified {
            for (index, pointer) in flags.iter().enumerate() {
                pointers.push((format!("claims.email_verified[{index}]"), pointer));
            }
        }
        for (index, pointer) in self.name.iter().enumerate() {
            pointers.push((format!("claims.name[{index}]"), pointer));
        }
        pointers
    }
}

/// A JSON Pointer (RFC 6901) that names a member: `/` then reference tokens, where `~` is
/// only ever `~0` or `~1`. The empty pointer (the whole document) names nothing we read.
pub fn is_json_pointer(raw: &str) -> bool {
    raw.starts_with('/')
        && raw
            .split('~')
            .skip(1)
            .all(|after| after.starts_with('0') || after.starts_with('1'))
}

/// The prefix of a claim pointer that reads the token response.
pub const TOKEN_RESPONSE: &str = "token:";

/// The members of a token response no pointer may read: the tokens themselves.
pub const TOKEN_MEMBERS: [&str; 3] = ["access_token", "refresh_token", "id_token"];

/// A claim pointer: a JSON Pointer, or `token:` and one into the token response that does
/// not name one of its tokens.
pub fn is_claim_pointer(raw: &str) -> bool {
    match raw.strip_prefix(TOKEN_RESPONSE) {
        Some(pointer) => {
            let first = pointer.trim_start_matches('/').split('/').next();
            is_json_pointer(pointer) && !first.is_some_and(|member| TOKEN_MEMBERS.contains(&member))
        }
        None => is_json_pointer(raw),
    }
}

impl<'de> Deserialize<'de> for EmailVerified {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(String),
            All(Vec<String>),
        }
        let expected = "email_verified: a pointer, a list of pointers that must all hold, \
                        \"when_present\" or \"never\"";
        match Raw::deserialize(deserializer).map_err(|_| de::Error::custom(expected))? {
            Raw::One(word) if word == "when_present" => Ok(Self::WhenPresent),
            Raw::One(word) if word == "never" => Ok(Self::Never),
            Raw::One(pointer) => Ok(Self::AllOf(vec![pointer])),
            Raw::All(pointers) if !pointers.is_empty() => Ok(Self::AllOf(pointers)),
            Raw::All(_) => Err(de::Error::custom(expected)),
        }
    }
}

/// A string, or a list of them.
fn one_or_many<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(deserializer)? {
        OneOrMany::One(one) => vec![one],
        OneOrMany::Many(many) => many,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_pointers_name_a_member_and_escape_with_tilde_0_or_1_only() {
        for good in [
            "/sub",
            "/data/id",
            "/picture/data/url",
            "/a~1b",
            "/m~0n",
            "/0",
            "/",
        ] {
            assert!(is_json_pointer(good), "{good}");
        }
        for bad in ["", "sub", "/a~2", "/a~", "data/id", "#/sub"] {
            assert!(!is_json_pointer(bad), "{bad}");
        }
    }

    #[test]
    fn email_verified_reads_a_pointer_or_one_of_two_words() {
        let read = |raw: &str| -> Result<EmailVerified, String> {
            #[derive(Deserialize)]
            struct Wrap {
                email_verified: EmailVerified,
            }
            toml::from_str::<Wrap>(&format!("email_verified = {raw:?}"))
                .map(|wrap| wrap.email_verified)
                .map_err(|error| error.to_string())
        };
        assert!(
            read("always").is_ok(),
            "read as a pointer, refused by the checks"
        );
        assert_eq!(
            read("/verified"),
            Ok(EmailVerified::AllOf(vec!["/verified".into()]))
        );
        assert_eq!(read("when_present"), Ok(EmailVerified::WhenPresent));
        assert_eq!(read("never"), Ok(EmailVerified::Never));
        let all = toml::from_str::<Claims>(
            "subject = \"/id\"\nemail_verified = [\"/a/valid\", \"/a/verified\"]",
        )
        .unwrap();
        assert_eq!(
            all.email_verified,
            EmailVerified::AllOf(vec!["/a/valid".into(), "/a/verified".into()])
        );
        assert!(
            toml::from_str::<Claims>("subject = \"/id\"\nemail_verified = []").is_err(),
            "an empty list vouches for nothing"
        );
    }

    #[test]
    fn a_claim_pointer_may_read_the_token_response_but_never_its_tokens() {
        for good in [
            "/sub",
            "token:/email",
            "token:/owner/user/id",
            "token:/user_id",
        ] {
            assert!(is_claim_pointer(good), "{good}");
        }
        for bad in [
            "token:email",
            "token:/access_token",
            "token:/refresh_token/x",
            "token:/id_token",
            "sub",
        ] {
            assert!(!is_claim_pointer(bad), "{bad}");
        }
    }

    #[test]
    fn a_name_is_one_pointer_or_a_list_of_fallbacks() {
        let one: Claims = toml::from_str("subject = \"/id\"\nname = \"/name\"").unwrap();
        assert_eq!(one.name, ["/name"]);
        let many: Claims =
            toml::from_str("subject = \"/id\"\nname = [\"/global_name\", \"/username\"]").unwrap();
        assert_eq!(many.name, ["/global_name", "/username"]);
        assert_eq!(many.email_verified, EmailVerified::Never);
    }
}
