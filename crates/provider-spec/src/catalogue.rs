//! The presets: providers the service knows by name beyond the eight built-in ones
//! (docs/providers.md), parsed once from the embedded `presets.toml`. An operator enables one
//! with its client credentials alone (`[oauth_providers.gitlab]`), or a second instance of
//! one under another key (`preset = "gitlab"`).

use crate::built_in::{built_in, declarations};
use crate::spec::ProviderSpec;
use std::sync::LazyLock;

/// Parsed on first use; the unit tests below parse and check the same text.
static PRESETS: LazyLock<Vec<ProviderSpec>> =
    LazyLock::new(|| declarations(include_str!("presets.toml")));

/// Every preset, in the catalogue's order.
pub fn presets() -> &'static [ProviderSpec] {
    &PRESETS
}

/// The preset called `name`.
pub fn preset(name: &str) -> Option<&'static ProviderSpec> {
    presets().iter().find(|spec| spec.key.as_str() == name)
}

/// Every provider the service knows by name: the built-in ones, then the presets.
pub fn catalogue() -> impl Iterator<Item = &'static ProviderSpec> {
    built_in().iter().chain(presets())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProviderKind;
    use crate::spec::EmailVerified;
    use std::collections::HashSet;

    #[test]
    fn every_preset_is_sound_and_named_once_apart_from_the_built_in_ones() {
        let file: crate::built_in::File =
            toml::from_str(include_str!("presets.toml")).expect("it parses");
        assert_eq!(presets(), file.provider);
        let mut seen = HashSet::new();
        for spec in catalogue() {
            assert!(seen.insert(spec.key), "{} declared twice", spec.key);
        }
        for spec in presets() {
            assert_eq!(spec.problems(), [], "{}", spec.key);
            assert!(!spec.key.is_built_in(), "{}", spec.key);
        }
        for spec in catalogue() {
            assert!(
                !spec.email_note.trim().is_empty(),
                "{}: why its emails are trusted or not",
                spec.key
            );
        }
    }

    #[test]
    fn a_preset_that_needs_an_issuer_is_per_tenant_and_has_no_default() {
        for spec in presets() {
            let needs_issuer = spec.needs.iter().any(|need| need == "issuer");
            if needs_issuer {
                assert!(spec.is_per_tenant(), "{}", spec.key);
                assert_eq!(spec.issuer, None, "{}", spec.key);
            }
            if spec.is_per_tenant() {
                assert!(needs_issuer || spec.issuer.is_some(), "{}", spec.key);
            }
        }
    }

    #[test]
    fn hs256_with_the_client_secret_is_opted_into_by_oidc_presets_only() {
        use crate::knobs::IdTokenSigning;
        for spec in presets() {
            if spec.id_token_signing == IdTokenSigning::ClientSecret {
                assert_eq!(spec.kind, ProviderKind::Oidc, "{}", spec.key);
            }
        }
    }

    #[test]
    fn an_email_is_trusted_only_through_a_flag_the_provider_documents() {
        for spec in presets() {
            if spec.claims.email_verified == EmailVerified::WhenPresent {
                panic!(
                    "{}: no preset vouches for every email it is given",
                    spec.key
                );
            }
        }
    }

    #[test]
    fn a_declaration_says_whether_it_reads_an_address_and_may_vouch_for_it() {
        let rule = |key: &str| {
            let spec = catalogue().find(|spec| spec.key.as_str() == key).unwrap();
            (spec.reads_an_address(), spec.may_vouch_for_an_address())
        };
        assert_eq!(rule("gitlab"), (true, true), "a verified flag");
        assert_eq!(rule("github"), (true, true), "its emails list's flag");
        assert_eq!(rule("spotify"), (true, false), "no flag documented");
        assert_eq!(rule("reddit"), (false, false), "no address at all");
    }
}
