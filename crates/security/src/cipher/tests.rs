//! Tests of `AesGcmTokenCipher`: round trips, tampering, rotation.

use super::*;
use crate::keys::key_id;

fn secret(label: &str) -> SecretText {
    SecretText::new(format!("{label}-secret-key-of-at-least-32-bytes"))
}

fn token() -> SecretText {
    SecretText::new("gho_live_provider_access_token_1234")
}

/// Flips one bit in the decoded blob at `index` and re-encodes the value.
fn flip_bit(sealed: &SealedToken, index: usize) -> SealedToken {
    let (id, encoded) = sealed.as_str().split_once('.').unwrap();
    let mut blob = URL_SAFE_NO_PAD.decode(encoded).unwrap();
    blob[index] ^= 0x01;
    SealedToken::new(format!("{id}.{}", URL_SAFE_NO_PAD.encode(blob)))
}

#[test]
fn a_sealed_value_opens_to_the_original_plaintext() {
    let cipher = AesGcmTokenCipher::new(&secret("current"), &[]);
    let sealed = cipher.seal(&token()).unwrap();
    assert_eq!(cipher.open(&sealed).unwrap(), token());
}

#[test]
fn an_empty_plaintext_round_trips() {
    let cipher = AesGcmTokenCipher::new(&secret("current"), &[]);
    let sealed = cipher.seal(&SecretText::new("")).unwrap();
    assert_eq!(cipher.open(&sealed).unwrap(), SecretText::new(""));
}

#[test]
fn sealing_the_same_plaintext_twice_gives_different_values() {
    let cipher = AesGcmTokenCipher::new(&secret("current"), &[]);
    let first = cipher.seal(&token()).unwrap();
    let second = cipher.seal(&token()).unwrap();
    assert_ne!(first, second);
}

#[test]
fn a_sealed_value_does_not_contain_the_plaintext() {
    let cipher = AesGcmTokenCipher::new(&secret("current"), &[]);
    let sealed = cipher.seal(&token()).unwrap();
    assert!(!sealed.as_str().contains(token().expose()));
    let encoded = sealed.as_str().split_once('.').unwrap().1;
    let blob = URL_SAFE_NO_PAD.decode(encoded).unwrap();
    let needle = token().expose().as_bytes().to_vec();
    assert!(!blob.windows(needle.len()).any(|w| w == needle.as_slice()));
}

#[test]
fn a_sealed_value_is_labelled_with_the_current_key_id() {
    let cipher = AesGcmTokenCipher::new(&secret("current"), &[]);
    let sealed = cipher.seal(&token()).unwrap();
    let (id, _) = sealed.as_str().split_once('.').unwrap();
    assert_eq!(id, key_id(&secret("current")).as_str());
}

#[test]
fn a_tampered_byte_anywhere_is_refused() {
    let cipher = AesGcmTokenCipher::new(&secret("current"), &[]);
    let sealed = cipher.seal(&token()).unwrap();
    let len = NONCE_LEN + token().expose().len() + TAG_LEN;
    // Nonce, ciphertext and tag each protect the value.
    for index in [0, NONCE_LEN - 1, NONCE_LEN, len - TAG_LEN - 1, len - 1] {
        assert_eq!(
            cipher.open(&flip_bit(&sealed, index)),
            Err(CipherError::Open),
            "bit flip at {index} was accepted"
        );
    }
}

#[test]
fn a_value_relabelled_with_another_key_id_is_refused() {
    let old = secret("old");
    let cipher = AesGcmTokenCipher::new(&secret("current"), std::slice::from_ref(&old));
    let sealed = cipher.seal(&token()).unwrap();
    let encoded = sealed.as_str().split_once('.').unwrap().1;
    let relabelled = SealedToken::new(format!("{}.{encoded}", key_id(&old)));
    assert_eq!(cipher.open(&relabelled), Err(CipherError::Open));
}

#[test]
fn garbage_and_unknown_key_ids_are_refused() {
    let cipher = AesGcmTokenCipher::new(&secret("current"), &[]);
    let sealed = cipher.seal(&token()).unwrap();
    let encoded = sealed.as_str().split_once('.').unwrap().1;
    for garbage in [
        String::new(),
        "no-dot-at-all".to_owned(),
        format!("{}.", key_id(&secret("current"))),
        format!("{}.!!not base64!!", key_id(&secret("current"))),
        format!("{}.AAAA", key_id(&secret("current"))),
        format!("00000000.{encoded}"),
        format!(".{encoded}"),
    ] {
        assert_eq!(
            cipher.open(&SealedToken::new(garbage.clone())),
            Err(CipherError::Open),
            "{garbage:?} was accepted"
        );
    }
}

#[test]
fn a_value_sealed_under_a_previous_key_still_opens_after_rotation() {
    let before = AesGcmTokenCipher::new(&secret("old"), &[]);
    let sealed = before.seal(&token()).unwrap();

    let after = AesGcmTokenCipher::new(&secret("new"), &[secret("old")]);
    assert_eq!(after.open(&sealed).unwrap(), token());

    let resealed = after.seal(&token()).unwrap();
    assert!(
        resealed
            .as_str()
            .starts_with(&format!("{}.", key_id(&secret("new"))))
    );
    // The old deployment cannot read what the new key sealed.
    assert_eq!(before.open(&resealed), Err(CipherError::Open));
}

#[test]
fn a_different_secret_cannot_open_the_value() {
    let sealed = AesGcmTokenCipher::new(&secret("mine"), &[])
        .seal(&token())
        .unwrap();
    let other = AesGcmTokenCipher::new(&secret("theirs"), &[]);
    assert_eq!(other.open(&sealed), Err(CipherError::Open));
}

#[test]
fn debug_output_shows_key_ids_but_no_key_material() {
    let cipher = AesGcmTokenCipher::new(&secret("current"), &[secret("old")]);
    let debug = format!("{cipher:?}");
    assert!(debug.contains(key_id(&secret("current")).as_str()));
    crate::keys::assert_reveals_nothing_of(&debug, &secret("current"));
    crate::keys::assert_reveals_nothing_of(&debug, &secret("old"));
}

#[test]
fn the_cipher_holds_the_token_cipher_contract() {
    social_login_testing::contract::token_cipher::token_cipher_holds_its_contract(
        &AesGcmTokenCipher::new(&secret("current"), &[]),
    );
}
