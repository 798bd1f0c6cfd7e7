//! Discord's avatar CDN URLs: the user's own avatar from its hash, or the default avatar
//! Discord shows when the hash is null (docs/providers.md#discord).

const CDN: &str = "https://cdn.discordapp.com";

/// The URL of the avatar Discord shows for this user; `None` only when the id is not a
/// snowflake (a provider fault: nothing sensible to point at).
///
/// An animated hash (`a_…`) gets `.gif`, so the picture moves as it does in Discord;
/// every other hash gets `.png`.
pub fn avatar_url(id: &str, hash: Option<&str>, discriminator: Option<&str>) -> Option<String> {
    // Parsed, not just copied: the id goes into a URL path, and the default avatar needs
    // its timestamp bits.
    let snowflake: u64 = id.parse().ok()?;
    match hash.filter(|hash| is_plain_hash(hash)) {
        Some(hash) => {
            let extension = if hash.starts_with("a_") { "gif" } else { "png" };
            Some(format!("{CDN}/avatars/{snowflake}/{hash}.{extension}"))
        }
        None => {
            let index = default_avatar_index(snowflake, discriminator);
            Some(format!("{CDN}/embed/avatars/{index}.png"))
        }
    }
}

/// Migrated users (discriminator `"0"` or none): `(id >> 22) % 6`, on the unsigned
/// 64-bit id. Legacy users: `discriminator % 5`.
fn default_avatar_index(snowflake: u64, discriminator: Option<&str>) -> u64 {
    match discriminator.and_then(|d| d.parse::<u64>().ok()) {
        Some(legacy) if legacy != 0 => legacy % 5,
        _ => (snowflake >> 22) % 6,
    }
}

/// A hash is hex with an optional `a_` prefix; anything else (a `/`, a `?`) could change
/// the URL and is treated as no avatar.
fn is_plain_hash(hash: &str) -> bool {
    (1..=64).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    // The example user of docs/providers.md#discord.
    const ID: &str = "1047859021147058176";

    #[test]
    fn a_static_hash_gives_a_png_and_an_animated_one_a_gif() {
        assert_eq!(
            avatar_url(ID, Some("1269e74af4df7417b13759eae50c83dc"), Some("0")).as_deref(),
            Some(
                "https://cdn.discordapp.com/avatars/1047859021147058176/1269e74af4df7417b13759eae50c83dc.png"
            )
        );
        assert_eq!(
            avatar_url(ID, Some("a_1269e74af4df7417b13759eae50c83dc"), Some("0")).as_deref(),
            Some(
                "https://cdn.discordapp.com/avatars/1047859021147058176/a_1269e74af4df7417b13759eae50c83dc.gif"
            )
        );
    }

    #[test]
    fn a_migrated_user_without_avatar_gets_the_default_from_the_id_bits() {
        // 1047859021147058176 >> 22 = 249829058920, and 249829058920 % 6 = 4.
        assert_eq!(
            avatar_url(ID, None, Some("0")).as_deref(),
            Some("https://cdn.discordapp.com/embed/avatars/4.png")
        );
        // 80351110224678912 >> 22 = 19157197529, and 19157197529 % 6 = 5.
        assert_eq!(
            avatar_url("80351110224678912", None, Some("0")).as_deref(),
            Some("https://cdn.discordapp.com/embed/avatars/5.png")
        );
    }

    #[test]
    fn ids_above_i64_max_use_unsigned_arithmetic() {
        // 2^63 + 2^22 * 7: a signed parse would fail; (id >> 22) % 6 = (2^41 + 7) % 6 = 3.
        let id = (1u64 << 63) + (7u64 << 22);
        assert_eq!(
            avatar_url(&id.to_string(), None, None).as_deref(),
            Some("https://cdn.discordapp.com/embed/avatars/3.png")
        );
    }

    #[test]
    fn a_legacy_user_without_avatar_gets_discriminator_mod_5() {
        assert_eq!(
            avatar_url(ID, None, Some("1337")).as_deref(),
            Some("https://cdn.discordapp.com/embed/avatars/2.png")
        );
    }

    #[test]
    fn a_hash_that_could_change_the_url_counts_as_no_avatar() {
        assert_eq!(
            avatar_url(ID, Some("../../evil?x=1"), Some("0")).as_deref(),
            Some("https://cdn.discordapp.com/embed/avatars/4.png")
        );
    }

    #[test]
    fn an_id_that_is_not_a_snowflake_has_no_avatar() {
        assert_eq!(avatar_url("not-a-number", Some("abc"), Some("0")), None);
    }

    proptest::proptest! {
        /// The id and hash come from the provider and go into the URL: nothing they hold
        /// may move it off the CDN or add a query.
        #[test]
        fn whatever_the_id_and_hash_the_url_stays_on_the_cdn(
            id in "[0-9]{1,20}|\\PC{0,24}",
            hash in proptest::option::of("[a-f0-9_]{1,40}|\\PC{0,70}"),
            discriminator in proptest::option::of("[0-9]{0,5}|\\PC{0,8}"),
        ) {
            if let Some(avatar) = avatar_url(&id, hash.as_deref(), discriminator.as_deref()) {
                let url = url::Url::parse(&avatar).unwrap();
                proptest::prop_assert_eq!(url.host_str(), Some("cdn.discordapp.com"));
                proptest::prop_assert_eq!(url.scheme(), "https");
                proptest::prop_assert_eq!(url.query(), None);
                proptest::prop_assert_eq!(url.fragment(), None);
                proptest::prop_assert_eq!(url.path_segments().unwrap().count(), 3);
            }
        }
    }
}
