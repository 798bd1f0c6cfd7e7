//! The eight built-in declarations, parsed once from the embedded `built_in.toml`.

use crate::spec::ProviderSpec;
use serde::Deserialize;
use social_login_domain::ProviderKey;
use std::sync::LazyLock;

/// A file of declarations: `[[provider]]` tables.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct File {
    #[serde(default)]
    pub(crate) provider: Vec<ProviderSpec>,
}

/// The declarations of the embedded `text`. The unit tests parse the same texts and check
/// them whole, so the `expect` cannot fire in a tested build.
pub(crate) fn declarations(text: &str) -> Vec<ProviderSpec> {
    toml::from_str::<File>(text)
        .expect("the embedded declarations are checked by their unit tests")
        .provider
}

/// Parsed on first use.
static BUILT_IN: LazyLock<Vec<ProviderSpec>> =
    LazyLock::new(|| declarations(include_str!("built_in.toml")));

/// Every built-in declaration, in the order of the built-in keys.
pub fn built_in() -> &'static [ProviderSpec] {
    &BUILT_IN
}

/// The declaration of a built-in key.
pub fn built_in_spec(key: ProviderKey) -> Option<&'static ProviderSpec> {
    built_in().iter().find(|spec| spec.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProviderKind;

    #[test]
    fn the_file_declares_each_built_in_key_once_in_order() {
        let file: File = toml::from_str(include_str!("built_in.toml")).expect("it parses");
        let keys: Vec<ProviderKey> = file.provider.iter().map(|spec| spec.key).collect();
        assert_eq!(keys, ProviderKey::BUILT_IN);
        assert_eq!(built_in(), file.provider);
    }

    #[test]
    fn every_declaration_is_sound() {
        for spec in built_in() {
            assert_eq!(spec.problems(), [], "{}", spec.key);
        }
    }

    #[test]
    fn the_display_names_are_the_ones_users_know() {
        let names: Vec<&str> = built_in().iter().map(|s| s.display_name.as_str()).collect();
        let expected = "Google GitHub Facebook Microsoft LinkedIn Discord X Apple";
        assert_eq!(names.join(" "), expected);
    }

    #[test]
    fn native_sign_in_is_google_microsoft_and_apple() {
        let native: Vec<&str> = built_in()
            .iter()
            .filter(|spec| spec.native_sign_in())
            .map(|spec| spec.key.as_str())
            .collect();
        assert_eq!(native, ["google", "microsoft", "apple"]);
        let oidc = built_in().iter().filter(|s| s.kind == ProviderKind::Oidc);
        assert_eq!(oidc.count(), 4);
    }

    #[test]
    fn every_key_has_its_declaration() {
        for key in ProviderKey::BUILT_IN {
            assert_eq!(built_in_spec(key).map(|spec| spec.key), Some(key));
        }
    }
}
