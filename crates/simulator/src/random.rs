//! Unguessable values: authorization codes and access tokens.

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

fn random_bytes(len: usize) -> Vec<u8> {
    let mut bytes = vec![0u8; len];
    // The simulator cannot run without an OS random source; failing loudly is right here.
    getrandom::fill(&mut bytes).expect("the OS random source is available");
    bytes
}

/// `len` random lowercase hex characters (GitHub codes are 20 of them).
pub fn hex(len: usize) -> String {
    random_bytes(len.div_ceil(2))
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()[..len]
        .to_owned()
}

/// `len` random characters of `[0-9A-Za-z]`, without modulo bias.
pub fn base62(len: usize) -> String {
    let mut out = String::with_capacity(len);
    while out.len() < len {
        for byte in random_bytes(len) {
            // 248 = 4 * 62: larger bytes would favour the first characters.
            if byte < 248 && out.len() < len {
                out.push(BASE62[usize::from(byte % 62)] as char);
            }
        }
    }
    out
}
