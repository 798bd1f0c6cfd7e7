//! What a declared header may hold: the one rule the settings check and the engine both
//! apply, so a declaration that passes `check-config` is one the engine can send.

/// An HTTP field name: one or more `tchar`s (RFC 9110 §5.1).
pub fn is_header_name(name: &str) -> bool {
    let tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    !name.is_empty() && name.bytes().all(tchar)
}

/// An HTTP field value as the client sends it: visible ASCII, spaces and tabs. Stricter
/// than the `http` crate, which lets bytes above 0x7F through (RFC 9110's obsolete
/// `obs-text`, which providers may read in any charset).
pub fn is_header_value(value: &str) -> bool {
    value
        .bytes()
        .all(|b| b == b'\t' || (b' '..=b'~').contains(&b))
}
